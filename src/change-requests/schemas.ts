import { Type } from '@sinclair/typebox';

/** One environment of a project, as `GET …/change-requests/config` lists it. */
export const ChangeRequestEnvironmentConfig = Type.Object({
  environment: Type.String(),
  type: Type.String({ description: "The environment's type" }),
  changeRequestEnabled: Type.Boolean(),
  requiredApprovals: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Approvals a change request needs before it can be applied; null where not enabled',
  }),
});

export const ChangeRequestConfigList = Type.Array(ChangeRequestEnvironmentConfig);

export const ChangeRequestConfigBody = Type.Object({
  changeRequestsEnabled: Type.Boolean(),
  requiredApprovals: Type.Optional(
    Type.Integer({ description: 'Taken as 1 below 1 and as 10 above 10, as in Unleash; 1 when left out' }),
  ),
});
