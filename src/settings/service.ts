import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { ConflictError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { type SecretBox, SecretKeyError } from '../secrets.js';
import { OIDC_SETTING, SIMPLE_SETTING, saveNamedSetting } from './named.js';
import type { OidcSettings, SimpleSettings } from './schemas.js';
import { findSetting, lockSetting, saveSetting, saveSettingOnce } from './store.js';

/**
 * The OIDC record as stored: the client secret sealed with FLAGPOLE_SECRET_KEY (or marked plain
 * without one), never as sent. Records saved before secrets were sealed hold `secret` as it was.
 */
type StoredOidc = Omit<OidcSettings, 'secret'> & { secret?: string; sealedSecret?: string };

/**
 * Whether OIDC settings can sign people in now: null when they can, else why not. The sign-in
 * area answers it (it asks the provider); it is handed in so that this area does not depend on it.
 */
export type OidcProbe = (settings: OidcSettings) => Promise<string | null>;

const KEYS = [
  'enabled',
  'discoverUrl',
  'clientId',
  'secret',
  'autoCreate',
  'enableSingleSignOut',
  'defaultRootRole',
  'emailDomains',
  'requireEmailVerified',
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

function seal(box: SecretBox, settings: OidcSettings): StoredOidc {
  const { secret, ...rest } = settings;
  return { ...rest, sealedSecret: box.seal(secret) };
}

/** The settings with their secret readable; a SecretKeyError when it cannot be opened. */
function unseal(box: SecretBox, stored: StoredOidc | null): OidcSettings | null {
  if (!stored) return null;
  const { sealedSecret, secret, ...rest } = stored;
  const open = sealedSecret === undefined ? secret : box.open(sealedSecret);
  return { ...rest, ...(open === undefined ? {} : { secret: open }) } as OidcSettings;
}

function withoutSecret(settings: Partial<StoredOidc>) {
  const { secret: _secret, sealedSecret: _sealed, ...rest } = settings;
  return rest;
}

/** Events are read by more people than settings: the client secret never goes into one. */
function eventData(settings: Partial<StoredOidc> | null) {
  return settings ? { id: OIDC_SETTING, ...withoutSecret(settings) } : null;
}

/** E6's answer to a read: as last saved, the secret included (Admins only). */
export async function readOidcSettings(ctx: Pick<AppContext, 'db' | 'secrets' | 'log'>) {
  const stored = await findSetting<StoredOidc>(ctx.db, OIDC_SETTING);
  try {
    return unseal(ctx.secrets, stored) ?? { enabled: false };
  } catch (error) {
    if (!(error instanceof SecretKeyError)) throw error;
    // The rest is still worth showing: saving the settings again with the secret repairs them.
    ctx.log.warn(`The stored OIDC client secret cannot be read: ${error.message}`);
    return withoutSecret(stored!);
  }
}

/**
 * The OIDC settings sign-in uses, read fresh (a change saved on any replica counts at the next
 * sign-in), or null when never saved. Throws a SecretKeyError when the client secret cannot be opened.
 */
export async function findOidcSettings(
  ctx: Pick<AppContext, 'db' | 'secrets'>,
): Promise<OidcSettings | null> {
  return unseal(ctx.secrets, await findSetting<StoredOidc>(ctx.db, OIDC_SETTING));
}

/** Whether signing in with a password is turned off, read fresh. */
export async function isPasswordSignInOff(db: Queryable): Promise<boolean> {
  return (await findSetting<SimpleSettings>(db, SIMPLE_SETTING))?.disabled === true;
}

export async function readSimpleSettings(db: Queryable): Promise<SimpleSettings> {
  return { disabled: await isPasswordSignInOff(db) };
}

/** Why these settings cannot sign anyone in, or null when they can (the provider was asked). */
async function oidcProblem(settings: OidcSettings | null, probe: OidcProbe): Promise<string | null> {
  if (settings?.enabled !== true) return 'OpenID Connect sign-in is not enabled';
  return probe(settings);
}

/**
 * E6: the record is replaced as a whole by what is sent. While password sign-in is off, OpenID
 * Connect is how people sign in, so settings that would not work (off, or a provider that does not
 * answer) are refused rather than locking everyone out.
 */
export async function saveOidcSettings(ctx: AppContext, actor: Actor, input: OidcSettings, probe: OidcProbe) {
  checkDiscoverUrl(input.discoverUrl);
  const settings = pick(input);
  const passwordOff = await isPasswordSignInOff(ctx.db);
  if (passwordOff) {
    const problem = await oidcProblem(settings, probe);
    if (problem) {
      throw new ValidationError(
        `Password sign-in is turned off, so OpenID Connect is the only way to sign in, and these settings would not work: ${problem}. Fix them, or turn password sign-in back on first (POST /api/admin/auth/simple/settings).`,
        [{ path: settings.enabled === true ? 'discoverUrl' : 'enabled', message: problem }],
      );
    }
  }
  return ctx.db.transaction(async (tx) => {
    // The OIDC record is locked first, as when password sign-in is turned off: one waits for the other.
    const before = await lockSetting<StoredOidc>(tx, OIDC_SETTING);
    if (!passwordOff && (await isPasswordSignInOff(tx))) {
      throw new ConflictError(
        'Password sign-in was turned off while these settings were being saved: send them again, so that they are checked against the provider.',
      );
    }
    await saveSetting(tx, OIDC_SETTING, seal(ctx.secrets, settings));
    recordEvent(tx, actor, {
      type: 'setting-updated',
      data: eventData(settings),
      preData: eventData(before),
    });
    return settings;
  });
}

/**
 * Turns password sign-in off or on again (Unleash's simple-auth settings). Off only while OpenID
 * Connect is enabled and its provider answers: otherwise nobody could sign in. API tokens and
 * personal access tokens are not affected.
 */
export async function saveSimpleSettings(
  ctx: AppContext,
  actor: Actor,
  input: SimpleSettings,
  probe: OidcProbe,
): Promise<SimpleSettings> {
  let checked: StoredOidc | null = null;
  if (input.disabled) {
    checked = await findSetting<StoredOidc>(ctx.db, OIDC_SETTING);
    let problem: string | null;
    try {
      problem = await oidcProblem(unseal(ctx.secrets, checked), probe);
    } catch (error) {
      if (!(error instanceof SecretKeyError)) throw error;
      problem = `its client secret cannot be read (${error.message})`;
    }
    if (problem) {
      throw new ValidationError(
        `Password sign-in cannot be turned off while OpenID Connect sign-in does not work (${problem}): nobody could sign in. Set up OpenID Connect first (POST /api/admin/auth/oidc/settings).`,
        [{ path: 'disabled', message: problem }],
      );
    }
  }
  return ctx.db.transaction(async (tx) => {
    if (input.disabled) {
      const now = await lockSetting<StoredOidc>(tx, OIDC_SETTING);
      if (!isDeepStrictEqual(now, checked)) {
        throw new ConflictError(
          'The OpenID Connect settings changed while password sign-in was being turned off: send the request again.',
        );
      }
    }
    const value = { disabled: input.disabled };
    await saveNamedSetting(tx, actor, SIMPLE_SETTING, value);
    return value;
  });
}

/** Unleash's name for the record holding the installation's id. */
const INSTANCE = 'unleash.instance';

/** Gives the installation its id on its first start (not in a migration: templates are copied). */
export async function ensureInstanceId(db: Queryable): Promise<void> {
  await saveSettingOnce(db, INSTANCE, { id: randomUUID() });
}

export async function readInstanceId(db: Queryable): Promise<string> {
  return (await findSetting<{ id: string }>(db, INSTANCE))?.id ?? '';
}

/** Whether sign-in through OpenID Connect is on. */
export async function isOidcEnabled(db: Queryable): Promise<boolean> {
  return (await findSetting<OidcSettings>(db, OIDC_SETTING))?.enabled === true;
}
