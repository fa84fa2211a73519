import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Timestamp } from '../http/schemas.js';

export const FeedbackResponse = Type.Object({
  userId: Type.Integer(),
  feedbackId: Type.String(),
  neverShow: Type.Boolean(),
  given: Nullable(Timestamp),
});

/** Unknown properties are ignored, and `userId` too: the record is always the caller's. */
export const FeedbackUpdateBody = Type.Object({
  userId: Type.Optional(Type.Integer()),
  neverShow: Type.Optional(Type.Boolean()),
  given: Type.Optional(Nullable(DateTime)),
});

export const FeedbackCreateBody = Type.Object({
  feedbackId: Type.String({ minLength: 1, maxLength: 255 }),
  neverShow: Type.Optional(Type.Boolean()),
  given: Type.Optional(Nullable(DateTime)),
});

export const FeedbackParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) });
