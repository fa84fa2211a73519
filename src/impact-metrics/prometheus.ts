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

/** Series rendered between two turns of the event loop: 2,000 histograms are ~100,000 lines. */
const SERIES_PER_TURN = 100;

/**
 * The impact metrics in the Prometheus text format: a counter's total over the hours kept, a
 * gauge's last value, a histogram's cumulative buckets, count and sum. Names and labels are stored
 * sanitised already (letters, digits, `_`).
 */
export async function prometheusText(db: Queryable): Promise<string> {
  let current = '';
  const ids = await seriesIdsByMetric(db);
  const rows = [];
  for (let i = 0; i < ids.length; i += PER_STATEMENT) {
    rows.push(...(await seriesTotals(db, ids.slice(i, i + PER_STATEMENT))));
  }
  // Joined a turn's lines at a time: one join of ~100,000 lines at the end would be one long step again.
  const parts: string[] = [];
  const lines: string[] = [];
  for (const [n, row] of rows.entries()) {
    if (n > 0 && n % SERIES_PER_TURN === 0) {
      parts.push(`${lines.join('\n')}\n`);
      lines.length = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
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
  if (lines.length > 0) parts.push(`${lines.join('\n')}\n`);
  return parts.join('');
}
