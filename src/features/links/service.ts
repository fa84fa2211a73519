import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import type { Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { NameExistsError, NotFoundError, ValidationError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { getLiveFeature } from '../core/service.js';
import { countLinks, deleteLink, type FeatureLink, findLink, insertLink, updateLink } from './store.js';

/** As many links as Unleash lets a feature have. */
export const MAX_LINKS = 10;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * A link as stored: an address without a scheme is taken as https (as Unleash does); anything but
 * an http(s) address with a host is refused, so no `javascript:` or `data:` link reaches a browser.
 */
export function checkedUrl(input: string): string {
  const text = input.trim();
  const url = SCHEME.test(text) ? text : `https://${text}`;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    throw new ValidationError(
      `"${input.slice(0, 200)}" is not a web address: send an http or https URL such as "https://example.com/ticket/1".`,
      [{ path: 'url', message: 'Must be an http(s) URL.' }],
    );
  }
  return url;
}

function describeLink(link: Pick<FeatureLink, 'url' | 'title'>) {
  return { url: link.url, title: link.title };
}

/** The link of that id, if it is one of the path's feature: a path must not reach another feature's link. */
async function linkOf(tx: Transaction, featureName: string, id: string): Promise<FeatureLink> {
  const link = await findLink(tx, id, { lock: 'update' });
  if (!link || link.featureName !== featureName) {
    throw new NotFoundError(`The feature "${featureName}" has no link with the id "${id}".`);
  }
  return link;
}

export interface LinkInput {
  url: string;
  title?: string | null;
}

export async function addLink(
  ctx: AppContext,
  identity: Identity,
  project: string,
  featureName: string,
  input: LinkInput,
): Promise<void> {
  const url = checkedUrl(input.url);
  await ctx.db.transaction(async (tx) => {
    // The feature locked: two links added at once are counted one after the other.
    await getLiveFeature(tx, project, featureName, { lock: 'update' });
    if ((await countLinks(tx, featureName)) >= MAX_LINKS) {
      throw new NameExistsError(
        `The feature "${featureName}" has ${MAX_LINKS} links, as many as a feature may have: remove one first.`,
      );
    }
    const link = { id: randomUUID(), featureName, url, title: input.title ?? null };
    await insertLink(tx, link);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-link-added',
      project,
      featureName,
      data: describeLink(link),
    });
  });
}

/** The address becomes what was sent; the title too when sent (null clears it), else it stays. */
export async function changeLink(
  ctx: AppContext,
  identity: Identity,
  project: string,
  featureName: string,
  id: string,
  input: LinkInput,
): Promise<void> {
  const url = checkedUrl(input.url);
  await ctx.db.transaction(async (tx) => {
    await getLiveFeature(tx, project, featureName);
    const before = await linkOf(tx, featureName, id);
    const after = { url, title: input.title === undefined ? before.title : input.title };
    if (after.url === before.url && after.title === before.title) return;
    await updateLink(tx, id, after.url, after.title);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-link-updated',
      project,
      featureName,
      data: after,
      preData: describeLink(before),
    });
  });
}

export async function removeLink(
  ctx: AppContext,
  identity: Identity,
  project: string,
  featureName: string,
  id: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getLiveFeature(tx, project, featureName);
    const before = await linkOf(tx, featureName, id);
    await deleteLink(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-link-removed',
      project,
      featureName,
      preData: describeLink(before),
    });
  });
}
