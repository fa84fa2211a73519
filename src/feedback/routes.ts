import type { AppContext } from '../app-context.js';
import { type App, identityOf } from '../http/route.js';
import { FeedbackCreateBody, FeedbackParams, FeedbackResponse, FeedbackUpdateBody } from './schemas.js';
import { updateFeedback } from './service.js';

export function feedbackRoutes(app: App, ctx: AppContext): void {
  const tags = ['Feedback'];

  app.post(
    '/api/admin/feedback',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "Record the caller's feedback",
        body: FeedbackCreateBody,
        response: { 200: FeedbackResponse },
      },
    },
    async (request) => {
      const { feedbackId, ...change } = request.body;
      return updateFeedback(ctx, identityOf(request), feedbackId, change);
    },
  );

  app.put(
    '/api/admin/feedback/:id',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "Update the caller's feedback record; omitted fields keep their values",
        params: FeedbackParams,
        body: FeedbackUpdateBody,
        response: { 200: FeedbackResponse },
      },
    },
    async (request) =>
      updateFeedback(ctx, identityOf(request), request.params.id, {
        neverShow: request.body.neverShow,
        given: request.body.given,
      }),
  );
}
