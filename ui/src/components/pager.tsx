import { Button } from './button';

interface Props {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  /** What is counted, for the status line ("flags"). */
  noun: string;
}

/** Which part of a long list is shown, and buttons to the previous and next parts. */
export function Pager({ page, pageSize, total, onPage, noun }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <nav class="pager" aria-label={`Pages of ${noun}`}>
      <p role="status">
        {total === 0 ? `No ${noun}` : `${first}–${last} of ${total.toLocaleString('en')} ${noun}`}
      </p>
      {pages > 1 && (
        <div class="actions">
          <Button onClick={() => onPage(page - 1)} disabled={page === 0}>
            Previous
          </Button>
          <span class="muted">
            Page {page + 1} of {pages}
          </span>
          <Button onClick={() => onPage(page + 1)} disabled={page >= pages - 1}>
            Next
          </Button>
        </div>
      )}
    </nav>
  );
}
