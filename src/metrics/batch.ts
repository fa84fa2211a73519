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

/** The batch in pieces of at most `size` rows, counts first; one piece when it is small. */
export function chunksOf({ counts, instances }: MetricsBatch, size: number): MetricsBatch[] {
  const chunks: MetricsBatch[] = [];
  for (let start = 0; start < counts.length + instances.length; start += size) {
    const end = start + size;
    chunks.push({
      counts: counts.slice(start, end),
      instances: instances.slice(Math.max(0, start - counts.length), Math.max(0, end - counts.length)),
    });
  }
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
