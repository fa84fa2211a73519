import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../db/database.js';
import type { EventSearch } from '../events/search.js';
import { readEventCreatorIds, readEventSearch } from '../events/service.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { findUsers } from '../users/queries.js';
import { dayStart, integers, parseFilter } from './filters.js';
import type { EventSearchQuery } from './schemas.js';

const DAY_MS = 86_400_000;

/**
 * Unleash's event search: each filter (`IS:x` or `IS_ANY_OF:x,y`) narrows the events down; the
 * events of projects hidden from the caller are never among them.
 */
export async function searchEvents(
  db: Queryable,
  visible: ProjectVisibility,
  q: Static<typeof EventSearchQuery>,
) {
  const values = (text: string | undefined) => (text === undefined ? undefined : parseFilter(text).values);
  const search: EventSearch = {
    ids: q.id === undefined ? undefined : integers(parseFilter(q.id), 'id'),
    features: values(q.feature),
    projects: values(q.project),
    types: values(q.type),
    createdBy: q.createdBy === undefined ? undefined : integers(parseFilter(q.createdBy), 'createdBy'),
    environments: values(q.environment),
    text: q.query?.trim() || undefined,
    from: q.from === undefined ? undefined : dayStart(q.from.slice(3), 'from'),
    // `to` names the last day the events may be of.
    before: q.to === undefined ? undefined : new Date(dayStart(q.to.slice(3), 'to').getTime() + DAY_MS),
    hiddenProjects: [...visible.hidden],
    limit: q.limit,
    offset: q.offset,
  };
  return readEventSearch(db, search);
}

/** The users who made changes: under their name now, or the one recorded once they are deleted. */
export async function readEventCreators(db: Queryable) {
  const creators = await readEventCreatorIds(db);
  const users = new Map(
    (
      await findUsers(
        db,
        creators.map((c) => c.id),
      )
    ).map((u) => [u.id, u]),
  );
  return creators.map((c) => {
    const u = users.get(c.id);
    return { id: c.id, name: (u && (u.name ?? u.username ?? u.email)) || c.recorded };
  });
}
