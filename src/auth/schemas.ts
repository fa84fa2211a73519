import { Type } from '@sinclair/typebox';
import { CurrentUser } from '../users/schemas.js';

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 255, description: 'Username or email' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);

export const ResetValidateQuery = Type.Object({ token: Type.String({ minLength: 1 }) });

export const ResetTokenUser = Type.Object({
  id: Type.Integer(),
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  token: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  role: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    type: Type.String(),
    description: Type.String(),
  }),
});

export const ChangePasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, description: 'The reset token of the reset link' }),
    password: Type.String({ maxLength: 256 }),
  },
  { additionalProperties: false },
);

/** POST /logout with single sign-out: where the browser goes next to sign out at the provider. */
export const LogoutAnswer = Type.Object(
  { redirect: Type.String({ description: "The provider's end-session URL" }) },
  { description: 'With single sign-out only; otherwise no body' },
);

export const ValidatePasswordBody = Type.Object(
  { password: Type.String({ maxLength: 256, description: 'The password to check' }) },
  { additionalProperties: false },
);

export const EmailBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 255, description: 'The e-mail address of the account' }) },
  { additionalProperties: false },
);

/** Whether a browser is signed in, and if not how it can sign in: always a 200, never an error. */
export const SessionAnswer = Type.Object({
  signedIn: Type.Boolean({ description: 'The session cookie names a user' }),
  // Signed in only: the user and their permissions, as `GET /api/admin/user` answers them.
  me: Type.Optional(CurrentUser),
  defaultHidden: Type.Optional(
    Type.Boolean({ description: 'Signed out only: password sign-in is turned off, so its form is hidden' }),
  ),
  options: Type.Optional(
    Type.Array(Type.Object({ type: Type.String(), message: Type.String(), path: Type.String() }), {
      description: 'Signed out only: the other ways to sign in (OpenID Connect), each a link to follow',
    }),
  ),
});
