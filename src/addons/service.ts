import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { readEventsByIds, recordEvent } from '../events/service.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import type { SecretBox } from '../secrets.js';
import { type AddonInput, checkAddon } from './parameters.js';
import { MASK, PROVIDERS } from './provider.js';
import { secretsOf } from './secret-parameters.js';
import {
  type Addon,
  deleteAddon,
  findAddon,
  insertAddon,
  listAddons,
  listFinishedDeliveries,
  updateAddon,
} from './store.js';

/** An integration as answered: sensitive parameters masked, as Unleash shows them. */
export function describeAddon(addon: Addon, secretNames: Iterable<string>) {
  const masked = Object.fromEntries([...secretNames].map((name) => [name, MASK]));
  return {
    id: addon.id,
    provider: addon.provider,
    description: addon.description,
    enabled: addon.enabled,
    parameters: { ...addon.parameters, ...masked },
    events: addon.events,
    projects: addon.projects,
    environments: addon.environments,
    createdAt: addon.createdAt,
  };
}

/** What an event records: no parameters at all, so no secret can reach the audit log. */
function eventData(addon: Addon) {
  const { parameters: _parameters, ...data } = describeAddon(addon, []);
  return data;
}

/** The names of the secrets stored, without opening them (a missing key must not hide the list). */
function secretNamesOf(box: SecretBox, addon: Addon): string[] {
  try {
    return Object.keys(secretsOf(box, addon));
  } catch {
    return ['url'];
  }
}

async function getAddon(db: Queryable, id: number, lock?: 'update' | 'exclusive'): Promise<Addon> {
  const addon = await findAddon(db, id, { lock });
  if (!addon) throw new NotFoundError(`There is no integration with the id ${id}.`);
  return addon;
}

export async function readAddons(ctx: AppContext) {
  const addons = await listAddons(ctx.db);
  return {
    addons: addons.map((a) => describeAddon(a, secretNamesOf(ctx.secrets, a))),
    providers: PROVIDERS.map((p) => ({ ...p, parameters: p.parameters.map((x) => ({ ...x })) })),
  };
}

export async function readAddon(ctx: AppContext, id: number) {
  const addon = await getAddon(ctx.db, id);
  return describeAddon(addon, secretNamesOf(ctx.secrets, addon));
}

export async function createAddon(ctx: AppContext, actor: Actor, input: AddonInput) {
  const values = await checkAddon(ctx.secrets, input, undefined, ctx.config.integrations.allowed);
  return ctx.db.transaction(async (tx) => {
    const addon = await insertAddon(tx, values);
    recordEvent(tx, actor, { type: 'addon-config-created', data: eventData(addon) });
    return describeAddon(addon, secretNamesOf(ctx.secrets, addon));
  });
}

/** Replaces the integration with what is sent; masked secrets keep their stored values. */
export async function replaceAddon(ctx: AppContext, actor: Actor, id: number, input: AddonInput) {
  const current = await getAddon(ctx.db, id);
  const values = await checkAddon(
    ctx.secrets,
    input,
    storedParameters(ctx, current),
    ctx.config.integrations.allowed,
  );
  return ctx.db.transaction(async (tx) => {
    const before = await getAddon(tx, id, 'update');
    // Masked secrets were taken from what was read before the (slow) check: not from a newer change.
    if (before.secrets !== current.secrets) {
      throw new ConflictError(`The integration ${id} was changed meanwhile: read it again and resend.`);
    }
    const after = await updateAddon(tx, id, values);
    recordEvent(tx, actor, {
      type: 'addon-config-updated',
      data: eventData(after),
      preData: eventData(before),
    });
    return describeAddon(after, secretNamesOf(ctx.secrets, after));
  });
}

/** Every parameter stored, secrets opened where they can be (a masked one can only keep an open one). */
function storedParameters(ctx: AppContext, addon: Addon): Record<string, string> {
  try {
    return { ...addon.parameters, ...secretsOf(ctx.secrets, addon) };
  } catch {
    return { ...addon.parameters };
  }
}

export async function removeAddon(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await getAddon(tx, id, 'exclusive');
    await deleteAddon(tx, id);
    recordEvent(tx, actor, { type: 'addon-config-deleted', preData: eventData(before) });
  });
}

function pageNumber(text: string | undefined, fallback: number, max: number): number {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return fallback;
  return Math.min(Number(text), max);
}

/** The integration's deliveries, newest first, as Unleash's integration events. */
export async function readIntegrationEvents(
  ctx: AppContext,
  id: number,
  query: { limit?: string; offset?: string },
) {
  await getAddon(ctx.db, id);
  const limit = Math.max(pageNumber(query.limit, 50, 1000), 1);
  const offset = pageNumber(query.offset, 0, 1_000_000_000);
  const deliveries = await listFinishedDeliveries(ctx.db, id, limit, offset);
  const events = await readEventsByIds(ctx.db, [...new Set(deliveries.map((d) => d.eventId))]);
  return {
    integrationEvents: deliveries.flatMap((d) => {
      const event = events.get(d.eventId);
      if (!event) return [];
      return [
        {
          id: String(d.id),
          integrationId: d.addonId,
          createdAt: d.finishedAt,
          state: d.state,
          stateDetails: d.stateDetails,
          event,
          details: d.details,
        },
      ];
    }),
  };
}
