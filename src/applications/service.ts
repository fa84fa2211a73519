import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { applicationsBySdkVersion, instancesOf, upsertInstances } from './instance-store.js';
import {
  type ApplicationFields,
  type ApplicationPage,
  deleteApplication,
  findApplication,
  insertApplication,
  listApplications,
  markSavedByAdmin,
  noteApplicationsSeen,
  updateApplication,
} from './store.js';

/**
 * What the `application-created` event of a new application says: all its fields when an Admin
 * made it, only its name when a server-side SDK did, and nothing for a frontend SDK — frontend
 * tokens are public, and what anyone can send must not fill the audit log.
 */
type Announce = 'fields' | 'name' | 'none';

/**
 * The application, locked, made the first time it is heard of. SDKs of a new application often
 * start together: the ones that lose the race to create it find it made, instead of failing.
 */
async function ensureApplication(
  tx: Transaction,
  actor: Actor,
  appName: string,
  fields: ApplicationFields,
  announce: Announce,
) {
  const existing = await findApplication(tx, appName, { lock: 'update' });
  if (existing) return { application: existing, created: false };
  const application = await insertApplication(tx, appName, fields, actor.name);
  if (!application) {
    return { application: (await findApplication(tx, appName, { lock: 'update' }))!, created: false };
  }
  if (announce !== 'none') {
    const data = announce === 'fields' ? { appName, ...fields } : { appName };
    recordEvent(tx, actor, { type: 'application-created', data });
  }
  return { application, created: true };
}

const announced = (sdkType: SdkType | undefined): Announce => (sdkType === 'frontend' ? 'none' : 'name');

/** E13: the application named in the path is created, or its fields sent are replaced. */
export async function saveApplication(
  ctx: AppContext,
  actor: Actor,
  appName: string,
  fields: ApplicationFields,
) {
  await ctx.db.transaction(async (tx) => {
    const { application, created } = await ensureApplication(tx, actor, appName, fields, 'fields');
    await markSavedByAdmin(tx, appName);
    if (created) return;
    const after = await updateApplication(tx, appName, fields);
    recordEvent(tx, actor, {
      type: 'application-updated',
      data: describeApplication(after),
      preData: describeApplication(application),
    });
  });
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
type Keyed = { appName: string; environment: string; instanceId: string };
const byKey = (a: Keyed, b: Keyed) =>
  compare(a.appName, b.appName) ||
  compare(a.environment, b.environment) ||
  compare(a.instanceId, b.instanceId);

export interface Registration {
  appName: string;
  instanceId: string;
  environment: string;
  sdkVersion?: string;
  strategies?: string[];
  startedAt?: Date;
  intervalMs?: number;
  clientIp?: string;
  sdkType: SdkType;
}

/** Which API an SDK instance talks to. */
export type SdkType = 'backend' | 'frontend';

/** An SDK starting up: its application (made if new, strategies and SDK version kept current) and instance. */
export async function registerInstance(ctx: AppContext, actor: Actor, r: Registration): Promise<void> {
  await registerInstances(ctx, actor, [r]);
}

/**
 * Registrations written in one transaction at most: a relay reporting a thousand SDKs holds the
 * database (on the embedded one, every other query) for a few short transactions, not one long one.
 */
const REGISTRATIONS_PER_TRANSACTION = 50;

/**
 * Many SDKs starting up, as a relay (Edge) reports them: in key order, so two processes writing
 * overlapping ones cannot deadlock, a few at a time.
 */
export async function registerInstances(ctx: AppContext, actor: Actor, registrations: Registration[]) {
  const sorted = [...registrations].sort(byKey);
  for (let i = 0; i < sorted.length; i += REGISTRATIONS_PER_TRANSACTION) {
    await registerInOneTransaction(ctx, actor, sorted.slice(i, i + REGISTRATIONS_PER_TRANSACTION));
  }
}

async function registerInOneTransaction(ctx: AppContext, actor: Actor, sorted: Registration[]) {
  await ctx.db.transaction(async (tx) => {
    for (const r of sorted) {
      const reported = { sdkVersion: r.sdkVersion, strategies: r.strategies };
      const { created } = await ensureApplication(tx, actor, r.appName, reported, announced(r.sdkType));
      if (!created && (r.sdkVersion !== undefined || r.strategies !== undefined)) {
        await updateApplication(tx, r.appName, reported);
      }
    }
    await upsertInstances(
      tx,
      sorted.map((r) => ({
        appName: r.appName,
        instanceId: r.instanceId,
        environment: r.environment,
        sdkVersion: r.sdkVersion ?? null,
        clientIp: r.clientIp ?? null,
        startedAt: r.startedAt ?? null,
        intervalMs: r.intervalMs ?? null,
        sdkType: r.sdkType,
      })),
    );
    await noteApplicationsSeen(
      tx,
      sorted.map((r) => r.appName),
      actor.name,
    );
  });
}

export interface SeenInstance {
  appName: string;
  instanceId: string;
  environment: string;
  clientIp?: string;
  sdkVersion?: string;
  sdkType?: SdkType;
}

/**
 * Instances that reported metrics: seen now, with their applications made if they never registered.
 * Rows are written in key order, so two processes writing overlapping ones cannot deadlock.
 */
export async function noteInstancesSeen(
  tx: Transaction,
  actor: Actor,
  instances: SeenInstance[],
): Promise<void> {
  const announce = new Map<string, Announce>();
  for (const i of instances) {
    if (announce.get(i.appName) !== 'name') announce.set(i.appName, announced(i.sdkType));
  }
  for (const appName of await noteApplicationsSeen(tx, [...announce.keys()], actor.name)) {
    if (announce.get(appName) === 'name')
      recordEvent(tx, actor, { type: 'application-created', data: { appName } });
  }
  await upsertInstances(
    tx,
    instances.map((i) => ({
      appName: i.appName,
      instanceId: i.instanceId,
      environment: i.environment,
      sdkVersion: i.sdkVersion ?? null,
      clientIp: i.clientIp ?? null,
      startedAt: null,
      intervalMs: null,
      sdkType: i.sdkType ?? null,
    })),
  );
}

function describeApplication(a: Awaited<ReturnType<typeof findApplication>> & object) {
  return {
    appName: a.appName,
    description: a.description,
    url: a.url,
    color: a.color,
    icon: a.icon,
    sdkVersion: a.sdkVersion,
    strategies: a.strategies,
    createdAt: a.createdAt,
  };
}

/** A page of the applications, with how many match in all. */
export async function readApplications(db: Queryable, page: ApplicationPage) {
  const { applications, total } = await listApplications(db, page);
  return { applications: applications.map(describeApplication), total };
}

/** The application with its instances, or 404 (the features it reported come from metrics/). */
export async function getApplicationDetails(db: Queryable, appName: string) {
  const application = await findApplication(db, appName);
  if (!application) throw new NotFoundError(`No application named "${appName}" has been created or seen.`);
  const instances = await instancesOf(db, [appName]);
  return {
    ...describeApplication(application),
    instances: instances.map((i) => ({
      appName: i.appName,
      instanceId: i.instanceId,
      environment: i.environment,
      sdkVersion: i.sdkVersion,
      clientIp: i.clientIp,
      started: i.startedAt,
      lastSeen: i.lastSeen,
      createdAt: i.createdAt,
    })),
  };
}

export async function removeApplication(ctx: AppContext, actor: Actor, appName: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const application = await findApplication(tx, appName, { lock: 'exclusive' });
    if (!application) throw new NotFoundError(`No application named "${appName}" has been created or seen.`);
    await deleteApplication(tx, appName);
    recordEvent(tx, actor, { type: 'application-deleted', preData: describeApplication(application) });
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instances of an application in one environment seen in the last 24 hours, or 404. */
export async function readEnvironmentInstances(db: Queryable, appName: string, environment: string) {
  if (!(await findApplication(db, appName))) {
    throw new NotFoundError(`No application named "${appName}" has been created or seen.`);
  }
  const instances = await instancesOf(db, [appName], new Date(Date.now() - DAY_MS));
  return {
    instances: instances
      .filter((i) => i.environment === environment)
      .map((i) => ({
        instanceId: i.instanceId,
        sdkVersion: i.sdkVersion,
        clientIp: i.clientIp,
        lastSeen: i.lastSeen,
      })),
  };
}

/** Instances of these applications seen in the last 24 hours (for the overviews of metrics/). */
export function recentInstancesOf(db: Queryable, appNames: string[]) {
  return instancesOf(db, appNames, new Date(Date.now() - DAY_MS), 10_000);
}

export { applicationsBySdkVersion, findApplication };
