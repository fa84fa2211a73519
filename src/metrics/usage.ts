import semver from 'semver';
import type { AppContext } from '../app-context.js';
import { applicationsBySdkVersion, findApplication, recentInstancesOf } from '../applications/service.js';
import { NotFoundError } from '../http/errors.js';
import type { ProjectVisibility } from '../http/visibility.js';
import {
  applicationsReporting,
  lastHourUsageOf,
  listUnknownFlags,
  usageByApplication,
} from './usage-store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest version of each SDK Unleash 8.2 still calls up to date (`<name>:<version>` as SDKs register). */
const MINIMUM_SDK_VERSIONS: Record<string, string> = {
  'unleash-client-node': '5.3.2',
  'unleash-client-nextjs': '1.6.2',
  'unleash-client-java': '9.2.0',
  'unleash-client-go': '4.1.0',
  'unleash-client-python': '5.11.0',
  'unleash-client-ruby': '5.0.0',
  'unleash-client-dotnet': '4.1.3',
  'unleash-client-php': '2.3.0',
  'unleash-node-sdk': '6.6.0',
  'unleash-nextjs-sdk': '1.6.2',
  'unleash-java-sdk': '11.0.2',
  'unleash-go-sdk': '5.0.3',
  'unleash-python-sdk': '6.3.0',
  'unleash-ruby-sdk': '6.3.1',
  'unleash-dotnet-sdk': '5.3.0',
  'unleash-php-sdk': '2.9.1',
};

/** Whether an SDK version (`unleash-client-node:5.0.0`) is older than its minimum; unknown SDKs are not. */
export function isOutdatedSdk(sdkVersion: string | null): boolean {
  if (!sdkVersion) return false;
  const [name = '', version = ''] = sdkVersion.split(':');
  const minimum = MINIMUM_SDK_VERSIONS[name];
  return minimum !== undefined && semver.valid(version) !== null && semver.lt(version, minimum);
}

/** Strategy names of Unleash's first versions: an application may still report them. */
const RETIRED_STRATEGIES = new Set([
  'gradualRolloutRandom',
  'gradualRolloutSessionId',
  'gradualRolloutUserId',
]);

function getProjectFeatures(ctx: AppContext, projectId: string): string[] {
  if (!ctx.model.project(projectId)) throw new NotFoundError(`There is no project "${projectId}".`);
  return [...ctx.model.allFeatures()].filter((f) => f.project === projectId).map((f) => f.name);
}

/** The SDK versions below the minimums, with the applications running them. */
export async function readOutdatedSdks(ctx: AppContext, projectId?: string) {
  const versions = await applicationsBySdkVersion(ctx.db);
  let using: Set<string> | undefined;
  if (projectId !== undefined) {
    const features = getProjectFeatures(ctx, projectId);
    using = new Set((await usageByApplication(ctx.db, { features })).map((u) => u.appName));
  }
  return {
    sdks: versions
      .filter((v) => isOutdatedSdk(v.sdkVersion))
      .map((v) => ({ ...v, applications: v.applications.filter((a) => !using || using.has(a)) }))
      .filter((v) => v.applications.length > 0),
  };
}

/** Unleash's feature usage summary: the last hour per environment, and who used it in the last day. */
export async function readFeatureUsage(ctx: AppContext, featureName: string) {
  if (!ctx.model.feature(featureName)) {
    throw new NotFoundError(`There is no feature named "${featureName}", archived or not.`);
  }
  const [lastHour, seenApplications] = await Promise.all([
    lastHourUsageOf(ctx.db, featureName),
    applicationsReporting(ctx.db, featureName, new Date(Date.now() - DAY_MS)),
  ]);
  return {
    version: 1,
    maturity: 'stable',
    featureName,
    lastHourUsage: lastHour.map((u) => ({
      environment: u.environment,
      timestamp: u.hour,
      yes: u.yes,
      no: u.no,
    })),
    seenApplications,
  };
}

/** Flags SDKs reported in the last 24 hours that do not exist, with who reported them where. */
export async function readUnknownFlags(ctx: AppContext) {
  const flags = await listUnknownFlags(ctx.db, new Date(Date.now() - DAY_MS));
  return {
    unknownFlags: flags.map((f) => {
      const byApp = new Map<string, { environment: string; seenAt: string }[]>();
      for (const r of f.reports) {
        byApp.set(r.appName, [
          ...(byApp.get(r.appName) ?? []),
          { environment: r.environment, seenAt: r.seenAt },
        ]);
      }
      return {
        name: f.name,
        lastSeenAt: f.lastSeenAt,
        lastEventAt: f.lastEventAt,
        reports: [...byApp].map(([appName, environments]) => ({ appName, environments })),
      };
    }),
  };
}

/** Unleash's application overview: per environment, its instances, SDKs and issues. */
export async function readApplicationOverview(ctx: AppContext, appName: string, visible: ProjectVisibility) {
  const application = await findApplication(ctx.db, appName);
  if (!application) throw new NotFoundError(`No application named "${appName}" has been created or seen.`);
  const [usage, instances, unknown] = await Promise.all([
    usageByApplication(ctx.db, { appName }),
    recentInstancesOf(ctx.db, [appName]),
    listUnknownFlags(ctx.db, new Date(Date.now() - DAY_MS), appName),
  ]);
  const names = new Set([
    ...usage.map((u) => u.environment),
    ...instances.map((i) => i.environment),
    ...unknown.flatMap((f) => f.reports.map((r) => r.environment)),
  ]);
  const features = new Set(usage.flatMap((u) => u.features));
  const projects = new Set(
    [...features].flatMap((name) => ctx.model.feature(name)?.project ?? []).filter((p) => visible.sees(p)),
  );
  const sorted = (list: Iterable<string | null>) =>
    [...new Set([...list].filter((x): x is string => !!x))].sort();
  const environments = [...names].sort().map((name) => {
    const here = instances.filter((i) => i.environment === name);
    const sdks = sorted(here.map((i) => i.sdkVersion));
    const lastSeen = here.reduce<Date | null>((max, i) => (max && max > i.lastSeen ? max : i.lastSeen), null);
    return {
      name,
      instanceCount: new Set(here.map((i) => i.instanceId)).size,
      sdks,
      frontendSdks: sorted(here.filter((i) => i.sdkType === 'frontend').map((i) => i.sdkVersion)),
      backendSdks: sorted(here.filter((i) => i.sdkType === 'backend').map((i) => i.sdkVersion)),
      lastSeen,
      issues: {
        missingFeatures: unknown
          .filter((f) => f.reports.some((r) => r.environment === name))
          .map((f) => f.name),
        outdatedSdks: sdks.filter(isOutdatedSdk),
      },
    };
  });
  const missingStrategies = application.strategies.filter(
    (s) => !RETIRED_STRATEGIES.has(s) && !ctx.model.strategyDefinition(s),
  );
  return {
    projects: [...projects].sort(),
    featureCount: features.size,
    environments,
    issues: { missingStrategies: [...new Set(missingStrategies)] },
  };
}

export interface ProjectApplicationsQuery {
  query?: string;
  offset?: string;
  limit?: string;
  sortBy?: string;
  sortOrder?: string;
}

/** The applications that reported usage of the project's flags, with their environments, instances and SDKs. */
export async function readProjectApplications(
  ctx: AppContext,
  projectId: string,
  q: ProjectApplicationsQuery,
) {
  const features = getProjectFeatures(ctx, projectId);
  const usage = await usageByApplication(ctx.db, { features });
  const instances = await recentInstancesOf(ctx.db, [...new Set(usage.map((u) => u.appName))]);
  const terms = (q.query ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const matches = (...values: (string | null)[]) =>
    terms.length === 0 || values.some((v) => v !== null && terms.some((t) => v.toLowerCase().includes(t)));
  const apps = new Map<
    string,
    { environments: Set<string>; instances: Set<string>; sdks: Map<string, Set<string>> }
  >();
  for (const u of usage) {
    const mine = instances.filter((i) => i.appName === u.appName && i.environment === u.environment);
    const rows = mine.length ? mine : [null];
    for (const i of rows) {
      if (!matches(u.appName, u.environment, i?.instanceId ?? null, i?.sdkVersion ?? null)) continue;
      const app = apps.get(u.appName) ?? { environments: new Set(), instances: new Set(), sdks: new Map() };
      app.environments.add(u.environment);
      if (i) app.instances.add(i.instanceId);
      if (i?.sdkVersion) {
        const [name = '', version = ''] = i.sdkVersion.split(':');
        const versions = app.sdks.get(name) ?? new Set<string>();
        if (version) versions.add(version);
        app.sdks.set(name, versions);
      }
      apps.set(u.appName, app);
    }
  }
  const number = (text: string | undefined, fallback: number, max: number) =>
    text !== undefined && /^\d{1,9}$/.test(text) && Number(text) <= max ? Number(text) : fallback;
  const limit = Math.max(number(q.limit, 50, 1000), 1);
  const offset = number(q.offset, 0, 1_000_000_000);
  const names = [...apps.keys()].sort();
  if (q.sortOrder === 'desc') names.reverse();
  return {
    total: names.length,
    applications: names.slice(offset, offset + limit).map((name) => {
      const app = apps.get(name)!;
      return {
        name,
        environments: [...app.environments].sort(),
        instances: [...app.instances].sort(),
        sdks: [...app.sdks]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([sdk, versions]) => ({ name: sdk, versions: [...versions].sort() })),
      };
    }),
  };
}
