import type { Queryable } from '../db/database.js';
import { seriesIdsByMetric, seriesTotals } from './store.js';

/** Series summed per statement: on the embedded database each statement runs on the event loop. */
const PER_STATEMENT = 5;

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeValue = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : '-Inf');

function labelText(labels: Record<string, string>, extra: Record<string, string> = {}): string {
  const all = { ...labels, ...extra };
  const keys = Object.keys(all).sort();
  return keys.length === 0 ? '' : `{${keys.map((k) => `${k}="${escapeValue(all[k]!)}"`).join(',')}}`;
}

/**
 * The impact metrics in the Prometheus text format: a counter's total over the hours kept, a
 * gauge's last value, a histogram's cumulative buckets, count and sum. Names and labels are stored
 * sanitised already (letters, digits, `_`).
 */
export async function prometheusText(db: Queryable): Promise<string> {
  const lines: string[] = [];
  let current = '';
  const ids = await seriesIdsByMetric(db);
  const rows = [];
  for (let i = 0; i < ids.length; i += PER_STATEMENT) {
    rows.push(...(await seriesTotals(db, ids.slice(i, i + PER_STATEMENT))));
  }
  for (const row of rows) {
    if (row.metric !== current) {
      current = row.metric;
      lines.push(`# HELP ${row.metric} ${escapeHelp(row.help)}`, `# TYPE ${row.metric} ${row.type}`);
    }
    const labels = { ...row.labels, metric_type: row.type };
    if (row.type === 'counter') lines.push(`${row.metric}${labelText(labels)} ${num(Number(row.total))}`);
    else if (row.type === 'gauge')
      lines.push(`${row.metric}${labelText(labels)} ${num(Number(row.last ?? 0))}`);
    else {
      (row.bounds ?? []).forEach((le, i) => {
        lines.push(
          `${row.metric}_bucket${labelText(labels, { le: num(le) })} ${num(Number(row.buckets?.[i] ?? 0))}`,
        );
      });
      lines.push(`${row.metric}_bucket${labelText(labels, { le: '+Inf' })} ${num(Number(row.total))}`);
      lines.push(`${row.metric}_sum${labelText(labels)} ${num(Number(row.sum ?? 0))}`);
      lines.push(`${row.metric}_count${labelText(labels)} ${num(Number(row.total))}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
