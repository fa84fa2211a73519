import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import type { OidcSettings } from './schemas.js';
import { findSetting, lockSetting, saveSetting } from './store.js';

/** Unleash's name for the record, so the event reads the same. */
const OIDC = 'unleash.enterprise.auth.oidc';

const KEYS = [
  'enabled',
  'discoverUrl',
  'clientId',
  'secret',
  'autoCreate',
  'enableSingleSignOut',
  'defaultRootRole',
  'emailDomains',
  'acrValues',
  'idTokenSigningAlgorithm',
] as const satisfies readonly (keyof OidcSettings)[];

function checkDiscoverUrl(value: string | undefined): void {
  if (value === undefined) return;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // not a URL at all: reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ValidationError(
      `\`discoverUrl\` must be an http(s) URL, such as https://login.example.com/.well-known/openid-configuration (got "${value}").`,
      [{ path: 'discoverUrl', message: 'Not an http(s) URL.' }],
    );
  }
}

/** Only the known fields are kept, each as sent. */
function pick(input: OidcSettings): OidcSettings {
  const result: Partial<Record<keyof OidcSettings, unknown>> = {};
  for (const key of KEYS) if (input[key] !== undefined) result[key] = input[key];
  return result as OidcSettings;
}

/** Events are read by more people than settings: the client secret never goes into one. */
function withoutSecret(settings: Partial<OidcSettings> | null) {
  if (!settings) return null;
  const { secret: _secret, ...rest } = settings;
  return { id: OIDC, ...rest };
}

export async function readOidcSettings(db: Queryable) {
  return (await findSetting<OidcSettings>(db, OIDC)) ?? { enabled: false };
}

/** E6: the record is replaced as a whole by what is sent. */
export async function saveOidcSettings(ctx: AppContext, actor: Actor, input: OidcSettings) {
  checkDiscoverUrl(input.discoverUrl);
  const settings = pick(input);
  return ctx.db.transaction(async (tx) => {
    const before = await lockSetting<OidcSettings>(tx, OIDC);
    await saveSetting(tx, OIDC, settings);
    recordEvent(tx, actor, {
      type: 'setting-updated',
      data: withoutSecret(settings),
      preData: withoutSecret(before),
    });
    return settings;
  });
}

/** A setting of another area (the maintenance switch), or null when it was never saved. */
export async function findNamedSetting<T>(db: Queryable, name: string): Promise<T | null> {
  return findSetting<T>(db, name);
}

/**
 * Saves a setting of another area with its event, as Unleash records one: `setting-created` the
 * first time, `setting-updated` after, the data being `{ id: name, …value }`. Answers the value before.
 */
export async function saveNamedSetting<T extends object>(
  tx: Transaction,
  actor: Actor,
  name: string,
  value: T,
): Promise<T | null> {
  const before = await lockSetting<T>(tx, name);
  await saveSetting(tx, name, value);
  recordEvent(tx, actor, {
    type: before === null ? 'setting-created' : 'setting-updated',
    data: { id: name, ...value },
    preData: before,
  });
  return before;
}

/** Unleash's name for the record holding the installation's id. */
const INSTANCE = 'unleash.instance';

/** Gives the installation its id on its first start (not in a migration: templates are copied). */
export async function ensureInstanceId(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO settings (name, content) VALUES ($1, jsonb_build_object('id', gen_random_uuid()::text))
     ON CONFLICT DO NOTHING`,
    [INSTANCE],
  );
}

export async function readInstanceId(db: Queryable): Promise<string> {
  return (await findSetting<{ id: string }>(db, INSTANCE))?.id ?? '';
}

/** Whether sign-in through OpenID Connect is on. */
export async function isOidcEnabled(db: Queryable): Promise<boolean> {
  return (await findSetting<OidcSettings>(db, OIDC))?.enabled === true;
}
