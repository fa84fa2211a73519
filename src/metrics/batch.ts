/** The rows a flush writes: hourly counts and the SDK instances seen. */
export interface HourlyCount {
  featureName: string;
  appName: string;
  environment: string;
  hour: Date;
  yes: number;
  no: number;
  variants: Map<string, number>;
}

export interface SeenInstance {
  appName: string;
  instanceId: string;
  environment: string;
  clientIp?: string;
  sdkVersion?: string;
  sdkType?: 'backend' | 'frontend';
}

export interface MetricsBatch {
  counts: HourlyCount[];
  instances: SeenInstance[];
}

export const rowsOf = (batch: MetricsBatch) => batch.counts.length + batch.instances.length;

/** The rows a count writes: its own and one per variant. */
const rowsOfCount = (c: HourlyCount) => 1 + c.variants.size;

/**
 * A count with more variants than fit in `size` rows as several: the first carries its yes and no,
 * the others add nothing to them, only the rest of its variants to the row the first made.
 */
function piecesOf(count: HourlyCount, size: number): HourlyCount[] {
  if (rowsOfCount(count) <= size) return [count];
  const variants = [...count.variants];
  const perPiece = Math.max(size - 1, 1);
  const pieces: HourlyCount[] = [];
  for (let start = 0; start < variants.length; start += perPiece) {
    const first = start === 0;
    pieces.push({
      ...count,
      yes: first ? count.yes : 0,
      no: first ? count.no : 0,
      variants: new Map(variants.slice(start, start + perPiece)),
    });
  }
  return pieces;
}

/**
 * The batch in pieces of at most `size` rows, variant rows counted, counts first; one piece when it
 * is small. A count's variants are rows too: one count of an SDK that reports 10,000 variants must
 * not make one long write.
 */
export function chunksOf({ counts, instances }: MetricsBatch, size: number): MetricsBatch[] {
  const chunks: MetricsBatch[] = [];
  let chunk: MetricsBatch = { counts: [], instances: [] };
  let rows = 0;
  const room = (n: number) => {
    if (rows === 0 || rows + n <= size) return;
    chunks.push(chunk);
    chunk = { counts: [], instances: [] };
    rows = 0;
  };
  for (const piece of counts.flatMap((c) => piecesOf(c, size))) {
    room(rowsOfCount(piece));
    chunk.counts.push(piece);
    rows += rowsOfCount(piece);
  }
  for (const instance of instances) {
    room(1);
    chunk.instances.push(instance);
    rows++;
  }
  if (rows > 0) chunks.push(chunk);
  return chunks;
}

export function halves({ counts, instances }: MetricsBatch): [MetricsBatch, MetricsBatch] {
  const half = Math.ceil((counts.length + instances.length) / 2);
  if (half <= counts.length) {
    return [
      { counts: counts.slice(0, half), instances: [] },
      { counts: counts.slice(half), instances },
    ];
  }
  const split = half - counts.length;
  return [
    { counts, instances: instances.slice(0, split) },
    { counts: [], instances: instances.slice(split) },
  ];
}
