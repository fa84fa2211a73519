const HOUR_MS = 60 * 60 * 1000;

export interface ToggleCounts {
  yes: number;
  no: number;
  variants?: Record<string, number>;
}

export interface MetricsReport {
  appName: string;
  instanceId: string;
  environment: string;
  clientIp?: string;
  sdkVersion?: string;
  start: Date;
  toggles: Record<string, ToggleCounts>;
}

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
}

export interface MetricsBatch {
  counts: HourlyCount[];
  instances: SeenInstance[];
}

/**
 * SDK metrics summed in memory and written in one batch at most once a second (and when the server
 * stops), so a burst of thousands of posts costs a handful of transactions. A batch that fails to
 * write is merged back and tried again.
 */
export class MetricsBuffer {
  private counts = new Map<string, HourlyCount>();
  private instances = new Map<string, SeenInstance>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly write: (batch: MetricsBatch) => Promise<void>,
    private readonly delayMs = 1000,
  ) {}

  add(report: MetricsReport): void {
    const hour = new Date(Math.floor(report.start.getTime() / HOUR_MS) * HOUR_MS);
    for (const [featureName, counts] of Object.entries(report.toggles)) {
      this.addCount({
        featureName,
        appName: report.appName,
        environment: report.environment,
        hour,
        yes: counts.yes,
        no: counts.no,
        variants: new Map(Object.entries(counts.variants ?? {})),
      });
    }
    const instance: SeenInstance = {
      appName: report.appName,
      instanceId: report.instanceId,
      environment: report.environment,
      clientIp: report.clientIp,
      sdkVersion: report.sdkVersion,
    };
    this.instances.set(
      `${instance.appName}\u0000${instance.environment}\u0000${instance.instanceId}`,
      instance,
    );
    this.schedule();
  }

  private addCount(c: HourlyCount): void {
    const key = `${c.featureName}\u0000${c.appName}\u0000${c.environment}\u0000${c.hour.getTime()}`;
    const sum = this.counts.get(key);
    if (!sum) {
      this.counts.set(key, c);
      return;
    }
    sum.yes += c.yes;
    sum.no += c.no;
    for (const [name, n] of c.variants) sum.variants.set(name, (sum.variants.get(name) ?? 0) + n);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes what has been summed so far; waits for a write already under way first. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.counts.size === 0 && this.instances.size === 0) return;
    const batch: MetricsBatch = {
      counts: [...this.counts.values()],
      instances: [...this.instances.values()],
    };
    this.counts = new Map();
    this.instances = new Map();
    this.flushing = this.write(batch)
      .catch(() => {
        for (const c of batch.counts) this.addCount(c);
        for (const i of batch.instances) {
          const key = `${i.appName}\u0000${i.environment}\u0000${i.instanceId}`;
          if (!this.instances.has(key)) this.instances.set(key, i);
        }
        this.schedule();
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /** Stops the timer and writes everything still in memory. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
