import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.js';

// The operations of Unleash Enterprise's release management that `../shared/spec/unleash-enterprise.md`
// lists (change requests §1.1, release templates and plans §2.1–2.4, impact metrics §3.2), path
// parameters written `{}`. Flagpole builds them a group at a time: this test says how many exist.
const P = '/api/admin/projects/{}';
const CR = `${P}/change-requests`;
const TEMPLATES = '/api/admin/release-plan-templates';
const FLAG_ENV = `${P}/features/{}/environments/{}`;
const PLANS = `${FLAG_ENV}/release-plans`;
const OLD_PLANS = `${FLAG_ENV}/release_plans`;
const IMPACT = '/api/admin/impact-metrics';
const SPEC = [
  `GET ${CR}/config`,
  `PUT ${P}/environments/{}/change-requests/config`,
  `POST ${P}/environments/{}/change-requests`,
  `GET ${CR}`,
  `GET ${CR}/{}`,
  `DELETE ${CR}/{}`,
  `PUT ${CR}/{}/changes/{}`,
  `DELETE ${CR}/{}/changes/{}`,
  `PUT ${CR}/{}/state`,
  `PUT ${CR}/{}/title`,
  `PUT ${CR}/{}/approvers`,
  `GET ${CR}/{}/approvers`,
  `POST ${CR}/{}/comments`,
  `GET ${CR}/available-reviewers/{}`,
  `GET ${CR}/pending`,
  `GET ${CR}/open`,
  `GET ${CR}/pending/{}`,
  `GET ${CR}/count`,
  `GET ${CR}/actionable`,
  `GET ${CR}/scheduled`,
  'GET /api/admin/search/change-requests',
  'POST /api/admin/playground/change-request/{}',
  `GET ${TEMPLATES}`,
  `POST ${TEMPLATES}`,
  `GET ${TEMPLATES}/{}`,
  `PUT ${TEMPLATES}/{}`,
  `DELETE ${TEMPLATES}/{}`,
  `POST ${TEMPLATES}/archive/{}`,
  `POST ${TEMPLATES}/{}/milestones`,
  `PUT ${TEMPLATES}/{}/milestones/{}`,
  `DELETE ${TEMPLATES}/{}/milestones/{}`,
  `POST ${TEMPLATES}/{}/milestones/{}/strategies`,
  `PUT ${TEMPLATES}/{}/milestones/{}/strategies/{}`,
  `DELETE ${TEMPLATES}/{}/milestones/{}/strategies/{}`,
  `GET ${P}/release-templates`,
  `POST ${P}/release-templates`,
  `PUT ${P}/release-templates/{}`,
  `POST ${P}/release-templates/archive/{}`,
  `GET ${PLANS}`,
  `POST ${PLANS}`,
  `DELETE ${PLANS}/{}`,
  `POST ${PLANS}/{}/milestones/{}/start`,
  `GET ${OLD_PLANS}`,
  `POST ${OLD_PLANS}`,
  `DELETE ${OLD_PLANS}/{}`,
  `POST ${OLD_PLANS}/{}/milestones/{}/start`,
  `PUT ${FLAG_ENV}/milestone-strategies/{}`,
  `PUT ${FLAG_ENV}/progressions/{}`,
  `DELETE ${FLAG_ENV}/progressions/{}`,
  `POST ${FLAG_ENV}/progressions/{}/resume`,
  `PUT ${PLANS}/{}/safeguards`,
  `DELETE ${PLANS}/{}/safeguards/{}`,
  `PUT ${FLAG_ENV}/safeguards`,
  `DELETE ${FLAG_ENV}/safeguards/{}`,
  `GET ${IMPACT}/`,
  `GET ${IMPACT}/metadata`,
  `POST ${IMPACT}/register`,
  `GET ${IMPACT}/external-source`,
  `POST ${IMPACT}/external-source`,
  `POST ${IMPACT}/external-source/validate`,
  `POST ${IMPACT}/config`,
  `GET ${IMPACT}/config`,
  `DELETE ${IMPACT}/config/{}`,
  `POST ${P}/features/{}/impact-metrics/config`,
  `GET ${P}/features/{}/impact-metrics/config`,
  `DELETE ${P}/features/{}/impact-metrics/config/{}`,
];

/** Paths of the groups above: whatever Flagpole serves under them must be in the list. */
const AREAS = [
  /\/change-requests/,
  /\/playground\/change-request\//,
  /^\/api\/admin\/release-plan-templates/,
  /\/release-templates/,
  /\/release-plans/,
  /\/release_plans/,
  /\/milestone-strategies/,
  /\/progressions/,
  /\/safeguards/,
  /impact-metrics/,
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("Unleash Enterprise's release management operations", () => {
  it('that Flagpole serves are all in the spec; it says how many of the spec exist', async () => {
    const ours: string[] = [];
    const paths: Record<string, Record<string, unknown>> = (await server.request('GET', '/docs/json')).body
      .paths;
    for (const [path, methods] of Object.entries(paths)) {
      if (!AREAS.some((area) => area.test(path))) continue;
      for (const method of Object.keys(methods)) {
        if (METHODS.includes(method))
          ours.push(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
      }
    }
    const spec = new Set(SPEC);
    expect(spec.size).toBe(SPEC.length);
    expect(ours.filter((op) => !spec.has(op))).toEqual([]);
    console.log(`release management operations of the spec that exist: ${ours.length} of ${spec.size}`);
    // Built a group at a time: change request configuration (2), release templates (12), those
    // of one project (4), change requests with their schedules and playground (20), release plans with
    // milestones started by hand or by progressions, and their strategies (8, and the 4 deprecated
    // paths of plans), safeguards (4), impact
    // metrics with their charts and external source (12): all of them.
    expect(ours.length).toBe(SPEC.length);
  });
});
