import { getApplicationDetails } from '../applications/service.js';
import type { Queryable } from '../db/database.js';
import { featuresReportedBy } from './store.js';

/** One application: its instances (applications/) and the features its metrics counted (here). */
export async function readApplication(db: Queryable, appName: string) {
  const application = await getApplicationDetails(db, appName);
  return {
    ...application,
    seenToggles: await featuresReportedBy(db, appName),
    links: { self: `/api/admin/metrics/applications/${encodeURIComponent(appName)}` },
  };
}
