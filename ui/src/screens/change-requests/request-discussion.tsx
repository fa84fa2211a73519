import { api } from '../../api/client';
import { requestsPath } from '../../change-requests/drafts';
import { type ChangeRequest, isClosed, userName } from '../../change-requests/types';
import { Button } from '../../components/button';
import { TextAreaField } from '../../components/fields';
import { Form } from '../../components/form';
import { formatDateTime } from '../../format';
import { useForm } from '../../forms/use-form';

interface Props {
  request: ChangeRequest;
  reload(): Promise<void>;
}

/** The approvals the request has against those it needs, and who gave or refused them. */
export function RequestReviews({ request }: { request: ChangeRequest }) {
  const given = request.approvals.length;
  const reviews = [
    ...request.approvals.map((r) => ({ ...r, verdict: 'Approved' })),
    ...request.rejections.map((r) => ({ ...r, verdict: 'Rejected' })),
  ];
  return (
    <section aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      <p>
        <strong>
          {given} of {request.minApprovals}
        </strong>{' '}
        approval{request.minApprovals === 1 ? '' : 's'} needed
        {given >= request.minApprovals && !isClosed(request.state) ? ': enough to apply it.' : '.'}
      </p>
      {reviews.length > 0 && (
        <ul class="review-list">
          {reviews.map((r) => (
            <li key={`${r.verdict}-${r.createdBy.id}-${r.createdAt}`}>
              {r.verdict} by {userName(r.createdBy)}{' '}
              <span class="muted">on {formatDateTime(r.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What people said about the request, oldest first, and a comment of one's own. */
export function RequestComments({ request, reload }: Props) {
  const form = useForm({ text: '' });
  const send = async ({ text }: { text: string }) => {
    await api.post(`${requestsPath(request.project)}/${request.id}/comments`, { text });
    form.set('text', '');
    await reload();
  };
  return (
    <section aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      {request.comments.length === 0 ? (
        <p class="muted">No comments yet.</p>
      ) : (
        <ol class="comment-list">
          {request.comments.map((c) => (
            <li key={c.id} class="card">
              <p class="comment-head">
                <strong>{userName(c.createdBy)}</strong>{' '}
                <span class="muted">{formatDateTime(c.createdAt)}</span>
              </p>
              <p class="comment-text">{c.text}</p>
            </li>
          ))}
        </ol>
      )}
      <Form label="Add a comment" error={form.error} onSubmit={form.onSubmit(send)}>
        <TextAreaField label="Comment" rows={3} required {...form.field('text')} />
        <div class="actions">
          <Button type="submit" busy={form.submitting}>
            Add comment
          </Button>
        </div>
      </Form>
    </section>
  );
}
