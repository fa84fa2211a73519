import { getApplicationDetails } from '../applications/service.js';
import type { Queryable } from '../db/database.js';
import type { ProjectVisibility } from '../http/visibility.js';
import type { FeatureModel } from '../read-model/model.js';
import { featuresReportedBy } from './store.js';

/**
 * One application: its instances (applications/) and the features its metrics counted (here), but
 * those of projects hidden from the caller.
 */
export async function readApplication(
  db: Queryable,
  model: FeatureModel,
  visible: ProjectVisibility,
  appName: string,
) {
  const application = await getApplicationDetails(db, appName);
  const seen = await featuresReportedBy(db, appName);
  return {
    ...application,
    seenToggles: seen.filter((name) => visible.sees(model.feature(name)?.project)),
    links: { self: `/api/admin/metrics/applications/${encodeURIComponent(appName)}` },
  };
}
