import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin } from '../../test/feature-ops.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import type { Identity } from '../http/identity.js';
import { applyChange, onChangeApplied } from './applier.js';
import { type Action, CHANGES, type Command } from './commands.js';
import { changesFlags, requireDeclaredChanges } from './route-config.js';

// Every route that writes a flag's configuration goes through the applier: each is called once
// here, and the applier must have seen exactly the command the route declares.

const FEATURE = '/api/admin/projects/default/features';
const ENV = (name: string) => `${FEATURE}/${name}/environments/development`;

interface Step {
  /** The route, as the OpenAPI document names it. */
  route: string;
  action: Action;
  url: string | (() => string);
  body?: unknown;
}

let server: TestServer;
let applied: Command[] = [];
const ids: Record<string, string> = {};

const SAFEGUARD = {
  impactMetric: { metricName: 'errors', timeRange: 'hour', aggregationMode: 'count', labelSelectors: {} },
  triggerCondition: { operator: '>', threshold: 10 },
};

const STEPS: Step[] = [
  {
    route: 'POST /api/admin/segments',
    action: 'createSegment',
    url: '/api/admin/segments',
    body: { name: 'beta', constraints: [] },
  },
  {
    route: 'PUT /api/admin/segments/{id}',
    action: 'updateSegment',
    url: () => `/api/admin/segments/${ids.segment}`,
    body: { name: 'beta-users', constraints: [] },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features',
    action: 'createFeature',
    url: FEATURE,
    body: { name: 'parent' },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features',
    action: 'createFeature',
    url: FEATURE,
    body: { name: 'child' },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/clone',
    action: 'cloneFeature',
    url: `${FEATURE}/parent/clone`,
    body: { name: 'copy' },
  },
  {
    route: 'PUT /api/admin/projects/{projectId}/features/{featureName}',
    action: 'updateFeature',
    url: `${FEATURE}/parent`,
    body: { description: 'the parent' },
  },
  {
    route: 'PATCH /api/admin/projects/{projectId}/features/{featureName}',
    action: 'patchFeature',
    url: `${FEATURE}/parent`,
    body: [{ op: 'replace', path: '/description', value: 'still the parent' }],
  },
  {
    route: 'POST /api/admin/projects/{projectId}/stale',
    action: 'markStale',
    url: '/api/admin/projects/default/stale',
    body: { features: ['copy'], stale: true },
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
    action: 'addStrategy',
    url: `${ENV('parent')}/strategies`,
    body: { name: 'default' },
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
    action: 'addStrategy',
    url: `${ENV('parent')}/strategies`,
    body: { name: 'flexibleRollout', parameters: { rollout: '50' } },
  },
  {
    route:
      'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
    action: 'updateStrategy',
    url: () => `${ENV('parent')}/strategies/${ids.strategy}`,
    body: { name: 'default', title: 'everyone' },
  },
  {
    route:
      'PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
    action: 'patchStrategy',
    url: () => `${ENV('parent')}/strategies/${ids.strategy}`,
    body: [{ op: 'replace', path: '/title', value: 'all' }],
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order',
    action: 'reorderStrategy',
    url: `${ENV('parent')}/strategies/set-sort-order`,
    body: [],
  },
  {
    route: 'POST /api/admin/segments/strategies',
    action: 'setStrategySegments',
    url: '/api/admin/segments/strategies',
    body: () => ({
      projectId: 'default',
      environmentId: 'development',
      strategyId: ids.strategy,
      segmentIds: [Number(ids.segment)],
    }),
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on',
    action: 'updateEnabled',
    url: `${ENV('parent')}/on`,
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off',
    action: 'updateEnabled',
    url: `${ENV('parent')}/off`,
  },
  {
    route: 'POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/on',
    action: 'updateEnabledOfFeatures',
    url: '/api/admin/projects/default/bulk_features/environments/development/on',
    body: { features: ['parent'] },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/off',
    action: 'updateEnabledOfFeatures',
    url: '/api/admin/projects/default/bulk_features/environments/development/off',
    body: { features: ['parent'] },
  },
  {
    route: 'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants',
    action: 'patchVariant',
    url: `${ENV('parent')}/variants`,
    body: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
  },
  {
    route: 'PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants',
    action: 'jsonPatchVariants',
    url: `${ENV('parent')}/variants`,
    body: [
      {
        op: 'add',
        path: '/-',
        value: { name: 'green', weight: 0, weightType: 'variable', stickiness: 'default' },
      },
    ],
  },
  {
    route: 'PUT /api/admin/projects/{projectId}/features/{featureName}/variants-batch',
    action: 'replaceVariantsInEnvironments',
    url: `${FEATURE}/parent/variants-batch`,
    body: { variants: [], environments: ['development'] },
  },
  {
    route:
      'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
    action: 'deleteStrategy',
    url: () => `${ENV('parent')}/strategies/${ids.strategy}`,
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{child}/dependencies',
    action: 'addDependency',
    url: `${FEATURE}/child/dependencies`,
    body: { feature: 'parent' },
  },
  {
    route: 'DELETE /api/admin/projects/{projectId}/features/{child}/dependencies/{parent}',
    action: 'deleteDependency',
    url: `${FEATURE}/child/dependencies/parent`,
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{child}/dependencies',
    action: 'addDependency',
    url: `${FEATURE}/child/dependencies`,
    body: { feature: 'parent' },
  },
  {
    route: 'DELETE /api/admin/projects/{projectId}/features/{child}/dependencies',
    action: 'deleteDependencies',
    url: `${FEATURE}/child/dependencies`,
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans',
    action: 'addReleasePlan',
    url: `${ENV('parent')}/release-plans`,
    body: () => ({ templateId: ids.template }),
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/milestones/{milestoneId}/start',
    action: 'startMilestone',
    url: () => `${ENV('parent')}/release-plans/${ids.plan}/milestones/${ids.milestone}/start`,
  },
  {
    route:
      'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/milestone-strategies/{strategyId}',
    action: 'updateMilestoneStrategy',
    url: () => `${ENV('parent')}/milestone-strategies/${ids.milestoneStrategy}`,
    body: { name: 'default' },
  },
  {
    route:
      'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{sourceMilestoneId}',
    action: 'changeMilestoneProgression',
    url: () => `${ENV('parent')}/progressions/${ids.milestone}`,
    body: () => ({ targetMilestone: ids.nextMilestone, transitionCondition: { intervalMinutes: 60 } }),
  },
  {
    route:
      'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{sourceMilestoneId}',
    action: 'deleteMilestoneProgression',
    url: () => `${ENV('parent')}/progressions/${ids.milestone}`,
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{planId}/resume',
    action: 'resumeMilestoneProgression',
    url: () => `${ENV('parent')}/progressions/${ids.plan}/resume`,
  },
  {
    route:
      'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards',
    action: 'changeReleasePlanSafeguard',
    url: () => `${ENV('parent')}/release-plans/${ids.plan}/safeguards`,
    body: SAFEGUARD,
  },
  {
    route:
      'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards/{safeguardId}',
    action: 'deleteReleasePlanSafeguard',
    url: () => `${ENV('parent')}/release-plans/${ids.plan}/safeguards/${ids.safeguard}`,
  },
  {
    route: 'PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/safeguards',
    action: 'changeFeatureEnvSafeguard',
    url: `${ENV('parent')}/safeguards`,
    body: SAFEGUARD,
  },
  {
    route:
      'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/safeguards/{safeguardId}',
    action: 'deleteFeatureEnvSafeguard',
    url: () => `${ENV('parent')}/safeguards/${ids.safeguard}`,
  },
  {
    route:
      'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}',
    action: 'deleteReleasePlan',
    url: () => `${ENV('parent')}/release-plans/${ids.plan}`,
  },
  // Unleash's deprecated paths, with an underscore: the same commands.
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans',
    action: 'addReleasePlan',
    url: `${ENV('parent')}/release_plans`,
    body: () => ({ templateId: ids.template }),
  },
  {
    route:
      'POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}/milestones/{milestoneId}/start',
    action: 'startMilestone',
    url: () => `${ENV('parent')}/release_plans/${ids.plan}/milestones/${ids.milestone}/start`,
  },
  {
    route:
      'DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release_plans/{planId}',
    action: 'deleteReleasePlan',
    url: () => `${ENV('parent')}/release_plans/${ids.plan}`,
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/link',
    action: 'addLink',
    url: `${FEATURE}/parent/link`,
    body: { url: 'https://example.com/parent' },
  },
  {
    route: 'PUT /api/admin/projects/{projectId}/features/{featureName}/link/{linkId}',
    action: 'updateLink',
    url: () => `${FEATURE}/parent/link/${ids.link}`,
    body: { url: 'https://example.com/parent2' },
  },
  {
    route: 'DELETE /api/admin/projects/{projectId}/features/{featureName}/link/{linkId}',
    action: 'deleteLink',
    url: () => `${FEATURE}/parent/link/${ids.link}`,
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete',
    action: 'completeFeature',
    url: `${FEATURE}/parent/lifecycle/complete`,
    body: { status: 'kept' },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/lifecycle/uncomplete',
    action: 'uncompleteFeature',
    url: `${FEATURE}/parent/lifecycle/uncomplete`,
  },
  {
    route: 'POST /api/admin/features/{featureName}/tags',
    action: 'addTag',
    url: '/api/admin/features/parent/tags',
    body: { type: 'simple', value: 'red' },
  },
  {
    route: 'DELETE /api/admin/features/{featureName}/tags/{type}/{value}',
    action: 'deleteTag',
    url: '/api/admin/features/parent/tags/simple/red',
  },
  {
    route: 'PUT /api/admin/features/{featureName}/tags',
    action: 'changeTags',
    url: '/api/admin/features/parent/tags',
    body: { addedTags: [{ type: 'simple', value: 'blue' }], removedTags: [] },
  },
  {
    route: 'PUT /api/admin/projects/{projectId}/tags',
    action: 'changeProjectTags',
    url: '/api/admin/projects/default/tags',
    body: { features: ['child'], tags: { addedTags: [{ type: 'simple', value: 'blue' }], removedTags: [] } },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/features/{featureName}/changeProject',
    action: 'moveFeature',
    url: `${FEATURE}/copy/changeProject`,
    body: { newProjectId: 'other' },
  },
  {
    route: 'DELETE /api/admin/projects/{projectId}/features/{featureName}',
    action: 'archiveFeature',
    url: '/api/admin/projects/other/features/copy',
  },
  {
    route: 'POST /api/admin/archive/revive/{featureName}',
    action: 'reviveFeature',
    url: '/api/admin/archive/revive/copy',
  },
  {
    route: 'POST /api/admin/projects/{projectId}/archive',
    action: 'archiveFeatures',
    url: '/api/admin/projects/other/archive',
    body: { features: ['copy'] },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/revive',
    action: 'reviveFeatures',
    url: '/api/admin/projects/other/revive',
    body: { features: ['copy'] },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/archive',
    action: 'archiveFeatures',
    url: '/api/admin/projects/default/archive',
    body: { features: ['child'] },
  },
  {
    route: 'POST /api/admin/projects/{projectId}/delete',
    action: 'deleteFeatures',
    url: '/api/admin/projects/default/delete',
    body: { features: ['child'] },
  },
  {
    route: 'DELETE /api/admin/projects/{projectId}/features/{featureName}',
    action: 'archiveFeature',
    url: '/api/admin/projects/other/features/copy',
  },
  {
    route: 'DELETE /api/admin/archive/{featureName}',
    action: 'deleteFeature',
    url: '/api/admin/archive/copy',
  },
  {
    route: 'DELETE /api/admin/segments/{id}',
    action: 'deleteSegment',
    url: () => `/api/admin/segments/${ids.segment}`,
  },
];

/** After some steps, the ids later steps name. */
async function remember(step: Step, body: any): Promise<void> {
  if (step.action === 'createSegment') ids.segment = String(body.id);
  if (step.action === 'addStrategy' && ids.strategy === undefined) ids.strategy = body.id;
  if (step.action === 'addReleasePlan') {
    ids.plan = body.id;
    ids.milestone = body.milestones[0].id;
    ids.nextMilestone = body.milestones[1].id;
    ids.milestoneStrategy = body.milestones[0].strategies[0].id;
  }
  if (step.action === 'changeReleasePlanSafeguard') {
    ids.safeguard = (await asAdmin(server, 'GET', `${ENV('parent')}/release-plans`)).body[0].safeguards[0].id;
  }
  if (step.action === 'changeFeatureEnvSafeguard') {
    ids.safeguard = (await asAdmin(server, 'GET', ENV('parent'))).body.safeguards[0].id;
  }
  if (step.action === 'addLink') {
    const feature = await asAdmin(server, 'GET', `${FEATURE}/parent`);
    ids.link = feature.body.links[0].id;
  }
}

beforeAll(async () => {
  server = await startTestServer();
  await asAdmin(server, 'POST', '/api/admin/projects', { id: 'other', name: 'Other' });
  await asAdmin(server, 'POST', '/api/admin/projects/other/environments', { environment: 'development' });
  await asAdmin(server, 'POST', '/api/admin/projects/other/environments', { environment: 'production' });
  const template = await asAdmin(server, 'POST', '/api/admin/release-plan-templates', {
    name: 'Two steps',
    milestones: [
      { name: 'First', sortOrder: 0, strategies: [{ name: 'default' }] },
      { name: 'Second', sortOrder: 1, strategies: [{ name: 'default' }] },
    ],
  });
  ids.template = template.body.id;
  onChangeApplied(server.ctx.db, (command) => applied.push(command));
});
afterAll(() => server?.close());

describe('the command applier (flag changes as commands)', () => {
  it('is what every route that writes a flag configuration goes through', async () => {
    for (const step of STEPS) {
      applied = [];
      const url = typeof step.url === 'function' ? step.url() : step.url;
      const body = typeof step.body === 'function' ? step.body() : step.body;
      const method = step.route.split(' ')[0]!;
      const res = await asAdmin(server, method, url, body);
      expect(res.status, `${step.route}: ${res.text}`).toBeLessThan(300);
      expect(
        applied.map((c) => c.action),
        step.route,
      ).toEqual([step.action]);
      await remember(step, res.body);
    }
  });

  it('covers every flag-writing route of the API document and every kind of change', async () => {
    const doc = (await asAdmin(server, 'GET', '/docs/json')).body;
    const writing: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const route = path.replace(/\{(\w+)\}/g, ':$1');
        if (changesFlags(method.toUpperCase(), route)) writing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(writing.length).toBeGreaterThan(30);
    expect([...new Set(STEPS.map((s) => s.route))].sort()).toEqual(writing.sort());
    expect([...new Set(STEPS.map((s) => s.action))].sort()).toEqual(Object.keys(CHANGES).sort());
  });

  it('checks the permission of a command itself, whoever hands it over', async () => {
    const viewer: Identity = {
      kind: 'user',
      userId: 999,
      name: 'viewer',
      rootRoleId: 3,
      grants: [],
      privateProjects: new Set(),
      via: 'pat',
    };
    await expect(
      applyChange(server.ctx, viewer, {
        action: 'updateEnabled',
        at: { project: 'default', featureName: 'parent', environment: 'development' },
        enabled: true,
      }),
    ).rejects.toThrow(/UPDATE_FEATURE_ENVIRONMENT/);
    const feature = await asAdmin(server, 'GET', `${FEATURE}/parent`);
    expect(feature.body.environments.find((e: any) => e.name === 'development').enabled).toBe(false);
  });

  it('refuses at start a route on a flag path that does not declare its change', async () => {
    const app = Fastify();
    requireDeclaredChanges(app as never);
    expect(() =>
      app.post('/api/admin/projects/:projectId/features/:featureName/rename', async () => ''),
    ).toThrow(/changes flags/);
    expect(() =>
      app.get('/api/admin/projects/:projectId/features/:featureName/rename', async () => ''),
    ).not.toThrow();
    await app.close();
  });
});
