import type { AuditEvent } from '../api/types';
import { diff, type FieldChange, showValue } from './diff';

function Value({ change, side }: { change: FieldChange; side: 'before' | 'after' }) {
  if (change.kind === (side === 'before' ? 'added' : 'removed')) return <span class="muted">(none)</span>;
  const text = showValue(change[side]);
  return side === 'before' ? <del>{text}</del> : <ins>{text}</ins>;
}

/** What an update changed, one field a row; the arrow between the columns is for sighted readers. */
export function ChangeTable({ changes }: { changes: FieldChange[] }) {
  if (changes.length === 0) return <p class="muted">Nothing in its data changed.</p>;
  return (
    <table class="table event-diff">
      <caption class="visually-hidden">What changed</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.path} class={`event-diff-${c.kind}`}>
            <th scope="row" data-label="Field">
              <code>{c.path}</code>
            </th>
            <td data-label="Before">
              <Value change={c} side="before" />
            </td>
            <td data-label="After">
              <Value change={c} side="after" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Raw({ label, value }: { label: string; value: unknown }) {
  return (
    <>
      <p class="label">{label}</p>
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </>
  );
}

/**
 * An event's data: for an update (data before and after) the fields it changed, with the whole
 * JSON one click away; otherwise the JSON it recorded, behind a disclosure.
 */
export function EventChanges({ event }: { event: AuditEvent }) {
  const { data, preData } = event;
  if (data == null && preData == null) return null;
  const isUpdate = data != null && preData != null;
  return (
    <>
      {isUpdate && <ChangeTable changes={diff(preData, data)} />}
      <details class="event-changes">
        <summary>{isUpdate ? 'Raw JSON' : 'Details'}</summary>
        {preData != null && <Raw label="Before" value={preData} />}
        {data != null && <Raw label={isUpdate ? 'After' : 'Data'} value={data} />}
      </details>
    </>
  );
}
