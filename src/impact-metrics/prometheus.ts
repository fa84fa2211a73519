import type { Queryable } from '../db/database.js';
import { seriesIdsByMetric, seriesTotals } from './store.js';

/** Series summed per statement: on the embedded database each statement runs on the event loop. */
const PER_STATEMENT = 5;

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeValue = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : '-Inf');

/**
 * A series' labels in the text, keys sorted: as they are, and with a bucket's `le` in its place
 * (rendered once per series: a histogram repeats them on every bucket's line).
 */
function labelTexts(labels: Record<string, string>) {
  const pair = (k: string) => `${k}="${escapeValue(labels[k]!)}"`;
  const keys = Object.keys(labels).sort();
  const head = ['{', ...keys.filter((k) => k < 'le').map((k) => `${pair(k)},`)].join('');
  const tail = [...keys.filter((k) => k > 'le').map((k) => `,${pair(k)}`), '}'].join('');
  return { plain: `{${keys.map(pair).join(',')}}`, withLe: (le: string) => `${head}le="${le}"${tail}` };
}

/**
 * The impact metrics in the Prometheus text format, a few series at a time: a counter's total over
 * the hours kept, a gauge's last value, a histogram's cumulative buckets, count and sum. Names and
 * labels are stored sanitised already (letters, digits, `_`). Sent as it is made: hundreds of
 * histogram series are megabytes, which made and sent as one string held the loop for 200 ms.
 */
export async function* prometheusChunks(db: Queryable): AsyncGenerator<string> {
  let current = '';
  const ids = await seriesIdsByMetric(db);
  for (let i = 0; i < ids.length; i += PER_STATEMENT) {
    const lines: string[] = [];
    for (const row of await seriesTotals(db, ids.slice(i, i + PER_STATEMENT))) {
      if (row.metric !== current) {
        current = row.metric;
        lines.push(`# HELP ${row.metric} ${escapeHelp(row.help)}`, `# TYPE ${row.metric} ${row.type}`);
      }
      const { plain, withLe } = labelTexts({ ...row.labels, metric_type: row.type });
      if (row.type === 'counter') lines.push(`${row.metric}${plain} ${num(Number(row.total))}`);
      else if (row.type === 'gauge') lines.push(`${row.metric}${plain} ${num(Number(row.last ?? 0))}`);
      else {
        (row.bounds ?? []).forEach((le, i) => {
          lines.push(`${row.metric}_bucket${withLe(num(le))} ${num(Number(row.buckets?.[i] ?? 0))}`);
        });
        lines.push(`${row.metric}_bucket${withLe('+Inf')} ${num(Number(row.total))}`);
        lines.push(`${row.metric}_sum${plain} ${num(Number(row.sum ?? 0))}`);
        lines.push(`${row.metric}_count${plain} ${num(Number(row.total))}`);
      }
    }
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
  }
}
