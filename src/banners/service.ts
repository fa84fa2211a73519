import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { throwIfProblems } from '../http/check.js';
import { NotFoundError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import type { BannerBody } from './schemas.js';
import {
  type Banner,
  type BannerValues,
  deleteBanner,
  findBanner,
  insertBanner,
  listBanners,
  updateBanner,
} from './store.js';

export function describeBanner(b: Banner) {
  return {
    id: b.id,
    message: b.message,
    enabled: b.enabled,
    variant: b.variant,
    sticky: b.sticky,
    icon: b.icon,
    link: b.link,
    linkText: b.linkText,
    dialogTitle: b.dialogTitle,
    dialog: b.dialog,
    createdAt: b.createdAt,
  };
}

export async function readBanners(db: Queryable) {
  return { banners: (await listBanners(db)).map(describeBanner) };
}

async function getBanner(db: Queryable, id: number, options?: ReadOptions): Promise<Banner> {
  const banner = await findBanner(db, id, options);
  if (!banner) throw new NotFoundError(`There is no banner with the id ${id}.`);
  return banner;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * Why a link cannot be shown, or null. The UI follows it on a click, so only what a browser
 * treats as a plain page is accepted: `dialog`, an http(s) link, or a relative one (a path,
 * `?query` or `#fragment` of this site) — never `javascript:` or any other scheme.
 */
export function linkProblem(link: string): string | null {
  const expected = 'Send an absolute http(s) link, a relative link such as "/docs", or "dialog".';
  if (link === 'dialog') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (link === '' || /[\s\u0000-\u001f\u007f]/.test(link)) {
    return `The link "${link}" is empty or holds blanks. ${expected}`;
  }
  const scheme = SCHEME.exec(link)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    return URL.canParse(link, 'http://relative.invalid/')
      ? null
      : `The link "${link}" is not a valid link. ${expected}`;
  }
  if ((scheme === 'http' || scheme === 'https') && URL.canParse(link) && new URL(link).host !== '')
    return null;
  return `The link "${link}" is not an http(s) link. ${expected}`;
}

/** A body as stored: the defaults of every field left out, and a link that can be followed. */
function valuesOf(input: Static<typeof BannerBody>): BannerValues {
  const problem = input.link == null ? null : linkProblem(input.link);
  throwIfProblems(problem ? [{ path: 'link', message: problem }] : []);
  return {
    message: input.message,
    enabled: input.enabled ?? true,
    variant: input.variant ?? 'info',
    sticky: input.sticky ?? false,
    icon: input.icon ?? null,
    link: input.link ?? null,
    linkText: input.linkText ?? null,
    dialogTitle: input.dialogTitle ?? null,
    dialog: input.dialog ?? null,
  };
}

export async function createBanner(ctx: AppContext, identity: Identity, input: Static<typeof BannerBody>) {
  const values = valuesOf(input);
  return ctx.db.transaction(async (tx) => {
    const data = describeBanner(await insertBanner(tx, values));
    recordEvent(tx, actorOf(identity), { type: 'banner-created', data });
    return data;
  });
}

async function change(tx: Transaction, actor: Actor, before: Banner, values: BannerValues) {
  const data = describeBanner(await updateBanner(tx, before.id, values));
  recordEvent(tx, actor, { type: 'banner-updated', data, preData: describeBanner(before) });
  return data;
}

function holds(banner: Banner, values: BannerValues): boolean {
  return (Object.keys(values) as (keyof BannerValues)[]).every((key) => banner[key] === values[key]);
}

/**
 * E1: every field becomes what was sent, a field left out its default; id and createdAt stay. A
 * banner that already holds those values is answered as it is: no lock, no write, no event.
 */
export async function replaceBanner(
  ctx: AppContext,
  identity: Identity,
  id: number,
  input: Static<typeof BannerBody>,
) {
  const values = valuesOf(input);
  const current = await getBanner(ctx.db, id);
  if (holds(current, values)) return describeBanner(current);
  return ctx.db.transaction(async (tx) => {
    const before = await getBanner(tx, id, { lock: 'update' });
    if (holds(before, values)) return describeBanner(before);
    return change(tx, actorOf(identity), before, values);
  });
}

/** Shows or hides a banner; switching it to the state it is in changes nothing. */
export async function switchBanner(ctx: AppContext, identity: Identity, id: number, enabled: boolean) {
  await ctx.db.transaction(async (tx) => {
    const before = await getBanner(tx, id, { lock: 'update' });
    if (before.enabled !== enabled) await change(tx, actorOf(identity), before, { ...before, enabled });
  });
}

export async function removeBanner(ctx: AppContext, identity: Identity, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await getBanner(tx, id, { lock: 'exclusive' });
    await deleteBanner(tx, id);
    recordEvent(tx, actorOf(identity), { type: 'banner-deleted', preData: describeBanner(before) });
  });
}
