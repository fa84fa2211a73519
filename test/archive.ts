import { server } from './features.js';
import { admin } from './requests.js';

// What the archive tests read back on `useFeatureServer()`'s server, as the admin.

/** The names of a project's live features. */
export async function listedFeatures(project = 'default'): Promise<string[]> {
  const res = await server.request('GET', `/api/admin/projects/${project}/features`, admin(server));
  return res.body.features.map((f: { name: string }) => f.name);
}

/** The names of the archived features, of one project or of all. */
export async function archivedFeatures(project?: string): Promise<string[]> {
  const res = await server.request(
    'GET',
    `/api/admin/archive/features${project ? `/${project}` : ''}`,
    admin(server),
  );
  return res.body.features.map((f: { name: string }) => f.name);
}

/** What a refused archive request must leave as it was: the projects `default` and `other`, and the archive. */
export async function featureLists() {
  return {
    live: await listedFeatures(),
    other: await listedFeatures('other'),
    archived: await archivedFeatures(),
  };
}
