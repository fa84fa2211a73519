import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { InsertedEvent } from '../events/service.js';

export interface AddonValues {
  provider: string;
  description: string | null;
  enabled: boolean;
  /** The parameters that are not secret. */
  parameters: Record<string, string>;
  /** The secret ones, sealed (SecretBox). */
  secrets: string;
  events: string[];
  projects: string[];
  environments: string[];
}

export interface Addon extends AddonValues {
  id: number;
  createdAt: Date;
}

interface AddonRecord {
  id: number;
  provider: string;
  description: string | null;
  enabled: boolean;
  parameters: Record<string, string>;
  secrets: string;
  events: string[];
  projects: string[];
  environments: string[];
  created_at: Date;
}

const COLUMNS =
  'id, provider, description, enabled, parameters, secrets, events, projects, environments, created_at';

function toAddon(r: AddonRecord): Addon {
  return {
    id: r.id,
    provider: r.provider,
    description: r.description,
    enabled: r.enabled,
    parameters: r.parameters,
    secrets: r.secrets,
    events: r.events,
    projects: r.projects,
    environments: r.environments,
    createdAt: r.created_at,
  };
}

function values(a: AddonValues): unknown[] {
  return [
    a.provider,
    a.description,
    a.enabled,
    JSON.stringify(a.parameters),
    a.secrets,
    JSON.stringify(a.events),
    JSON.stringify(a.projects),
    JSON.stringify(a.environments),
  ];
}

export async function listAddons(db: Queryable): Promise<Addon[]> {
  const { rows } = await db.query<AddonRecord>(`SELECT ${COLUMNS} FROM addons ORDER BY id`);
  return rows.map(toAddon);
}

export async function findAddon(
  db: Queryable,
  id: number,
  { lock }: ReadOptions = {},
): Promise<Addon | null> {
  const { rows } = await db.query<AddonRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM addons WHERE id = $1`, lock),
    [id],
  );
  return rows[0] ? toAddon(rows[0]) : null;
}

export async function insertAddon(db: Queryable, a: AddonValues): Promise<Addon> {
  const { rows } = await db.query<AddonRecord>(
    `INSERT INTO addons (provider, description, enabled, parameters, secrets, events, projects, environments)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7::jsonb, $8::jsonb) RETURNING ${COLUMNS}`,
    values(a),
  );
  return toAddon(rows[0]!);
}

export async function updateAddon(db: Queryable, id: number, a: AddonValues): Promise<Addon> {
  const { rows } = await db.query<AddonRecord>(
    `UPDATE addons SET provider = $2, description = $3, enabled = $4, parameters = $5::jsonb, secrets = $6,
            events = $7::jsonb, projects = $8::jsonb, environments = $9::jsonb
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, ...values(a)],
  );
  return toAddon(rows[0]!);
}

export async function deleteAddon(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM addons WHERE id = $1', [id]);
}

/**
 * Queues a delivery for every enabled integration listening to each event: its type among the
 * integration's events, its project and environment among the integration's (none listed, or
 * `*`, means all; an event without a project or environment passes only such an integration).
 */
export async function insertDeliveries(
  db: Queryable,
  events: InsertedEvent[],
  listened: ReadonlySet<string>,
): Promise<number> {
  // Most changes have no integration listening: only events of the types listened to are matched
  // (an import's thousands of events, sent back whole, cost a statement of tens of milliseconds).
  const heard = events.filter((e) => listened.has(e.type));
  if (heard.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO addon_deliveries (addon_id, event_id)
     SELECT a.id, e.id
       FROM jsonb_to_recordset($1::jsonb) AS e(id bigint, type text, project text, environment text)
       JOIN addons a ON a.enabled AND a.events ? e.type
      WHERE (jsonb_array_length(a.projects) = 0 OR a.projects ? '*' OR a.projects ? e.project)
        AND (jsonb_array_length(a.environments) = 0 OR a.environments ? '*' OR a.environments ? e.environment)
      ORDER BY e.id, a.id`,
    [JSON.stringify(heard)],
  );
  return rowCount;
}

/** The event types enabled integrations listen to. */
export async function listenedEventTypes(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ type: string }>(
    'SELECT DISTINCT jsonb_array_elements_text(events) AS type FROM addons WHERE enabled',
  );
  return new Set(rows.map((r) => r.type));
}

export interface Delivery {
  id: number;
  addonId: number;
  eventId: number;
  /** This attempt's number, from 1. */
  attempts: number;
}

/**
 * Takes up to `limit` due deliveries for this process: each is pushed `leaseMs` into the future,
 * so no other process takes it while it is tried, and is due again should this one die. Rows
 * another process is taking are skipped, not waited for.
 */
export async function claimDueDeliveries(db: Queryable, limit: number, leaseMs: number): Promise<Delivery[]> {
  const { rows } = await db.query<{ id: string; addon_id: number; event_id: string; attempts: number }>(
    `WITH due AS (
       SELECT id FROM addon_deliveries
        WHERE state = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id LIMIT $1
          FOR UPDATE SKIP LOCKED)
     UPDATE addon_deliveries d
        SET attempts = d.attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
       FROM due WHERE d.id = due.id
     RETURNING d.id, d.addon_id, d.event_id, d.attempts`,
    [limit, leaseMs],
  );
  return rows
    .map((r) => ({
      id: Number(r.id),
      addonId: r.addon_id,
      eventId: Number(r.event_id),
      attempts: r.attempts,
    }))
    .sort((a, b) => a.id - b.id);
}

export interface Outcome {
  state: 'success' | 'failed';
  stateDetails: string;
  details: Record<string, unknown>;
}

/** The end of a delivery: success, or failed for good. */
export async function finishDelivery(db: Queryable, id: number, outcome: Outcome): Promise<void> {
  await db.query(
    `UPDATE addon_deliveries SET state = $2, state_details = $3, details = $4::jsonb, finished_at = now()
      WHERE id = $1`,
    [id, outcome.state, outcome.stateDetails, JSON.stringify(outcome.details)],
  );
}

/** A failed attempt to be made again after `delayMs`; what happened is kept for the record. */
export async function retryDelivery(
  db: Queryable,
  id: number,
  delayMs: number,
  outcome: Outcome,
): Promise<void> {
  await db.query(
    `UPDATE addon_deliveries
        SET next_attempt_at = now() + $2 * interval '1 millisecond', state_details = $3, details = $4::jsonb
      WHERE id = $1`,
    [id, delayMs, outcome.stateDetails, JSON.stringify(outcome.details)],
  );
}

/** An attempt this process gave up on when it stopped: due again at once, as if never taken. */
export async function releaseDelivery(db: Queryable, id: number): Promise<void> {
  await db.query(
    `UPDATE addon_deliveries SET next_attempt_at = now(), attempts = greatest(attempts - 1, 0)
      WHERE id = $1 AND state = 'pending'`,
    [id],
  );
}

export interface FinishedDelivery {
  id: number;
  addonId: number;
  eventId: number;
  state: 'success' | 'failed';
  stateDetails: string;
  details: Record<string, unknown>;
  finishedAt: Date;
}

/** The integration's finished deliveries, newest first. */
export async function listFinishedDeliveries(
  db: Queryable,
  addonId: number,
  limit: number,
  offset: number,
): Promise<FinishedDelivery[]> {
  const { rows } = await db.query<{
    id: string;
    addon_id: number;
    event_id: string;
    state: 'success' | 'failed';
    state_details: string | null;
    details: Record<string, unknown> | null;
    finished_at: Date;
  }>(
    `SELECT id, addon_id, event_id, state, state_details, details, finished_at FROM addon_deliveries
      WHERE addon_id = $1 AND state <> 'pending'
      ORDER BY finished_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [addonId, limit, offset],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    addonId: r.addon_id,
    eventId: Number(r.event_id),
    state: r.state,
    stateDetails: r.state_details ?? '',
    details: r.details ?? {},
    finishedAt: r.finished_at,
  }));
}

/** Retention: deliveries that finished before `before`. */
export async function deleteFinishedDeliveriesBefore(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM addon_deliveries WHERE state <> 'pending' AND finished_at < $1`,
    [before],
  );
  return rowCount;
}
