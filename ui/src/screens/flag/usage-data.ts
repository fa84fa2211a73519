import type { MetricsBucket } from '../../api/types';

export interface HourlyUsage {
  environment: string;
  /** Start of each hour, in seconds since the epoch (uPlot's time unit), oldest first. */
  hours: number[];
  yes: number[];
  no: number[];
  applications: string[];
}

/** E20's series (one per application and environment) summed per environment, hour by hour. */
export function usageByEnvironment(buckets: MetricsBucket[]): Map<string, HourlyUsage> {
  const byEnvironment = new Map<
    string,
    { hours: Map<number, { yes: number; no: number }>; apps: Set<string> }
  >();
  for (const b of buckets) {
    let env = byEnvironment.get(b.environment);
    if (!env) {
      env = { hours: new Map(), apps: new Set() };
      byEnvironment.set(b.environment, env);
    }
    env.apps.add(b.appName);
    const hour = Date.parse(b.timestamp) / 1000;
    const counts = env.hours.get(hour) ?? { yes: 0, no: 0 };
    counts.yes += b.yes;
    counts.no += b.no;
    env.hours.set(hour, counts);
  }
  const usage = new Map<string, HourlyUsage>();
  for (const [environment, { hours, apps }] of byEnvironment) {
    const sorted = [...hours.entries()].sort(([a], [b]) => a - b);
    usage.set(environment, {
      environment,
      hours: sorted.map(([h]) => h),
      yes: sorted.map(([, c]) => c.yes),
      no: sorted.map(([, c]) => c.no),
      applications: [...apps].sort(),
    });
  }
  return usage;
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
