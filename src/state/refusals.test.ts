import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TOKEN, callers, exportState, server, useFeatureServer } from '../../test/features.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser } from '../../test/server.js';
import { stateDocument } from '../../test/state-document.js';

useFeatureServer();

/** Sends an import that must be refused, and checks that neither the state nor the event log moved. */
async function expectRefused(
  status: number,
  send: () => Promise<{ status: number; body: any; text: string }>,
) {
  const before = await exportState();
  const events = await countEvents(server);
  const res = await send();
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({
    id: expect.any(String),
    name: expect.any(String),
    message: expect.any(String),
  });
  expect(await exportState()).toEqual(before);
  expect(await countEvents(server)).toBe(events);
  return res.body;
}

const send =
  (body: unknown, query = '') =>
  () =>
    server.request('POST', `/api/admin/state/import${query}`, { ...admin(server), body });

/** A valid document of a few features, whose one item each case below breaks. */
const base = () => stateDocument(6);

beforeAll(async () => {
  // A context field whose legal values strategy constraints must keep to.
  const res = await server.request('POST', '/api/admin/context', {
    ...admin(server),
    body: { name: 'plan', legalValues: [{ value: 'free' }, { value: 'pro' }] },
  });
  expect(res.status).toBe(201);
  const made = await server.request('POST', '/api/admin/projects/default/features', {
    ...admin(server),
    body: { name: 'elsewhere' },
  });
  expect(made.status).toBe(201);
});

describe('E5 who may import', () => {
  it('401 without credentials, 403 for Editors, Viewers and client tokens, 415 for text', async () => {
    const editor = await createUser(server, 2);
    const url = '/api/admin/state/import';
    await expectRefused(401, () => server.request('POST', url, { body: base() }));
    for (const token of [editor.pat, callers.viewer.pat, CLIENT_TOKEN]) {
      expect(
        (await expectRefused(403, () => server.request('POST', url, { token, body: base() }))).name,
      ).toBe('NoAccessError');
    }
    await expectRefused(403, () =>
      server.request('POST', url, { token: editor.pat, body: 'x', contentType: 'text/plain' }),
    );
    await expectRefused(415, () =>
      server.request('POST', url, {
        ...admin(server),
        body: JSON.stringify(base()),
        contentType: 'text/plain',
      }),
    );
  });
});

describe('E5 a bad document is refused whole, naming the offending item', () => {
  it('400 when the document itself is not a state', async () => {
    const paths = async (body: unknown, query = '') =>
      (await expectRefused(400, send(body, query))).details.map((d: { path: string }) => d.path);
    expect(await paths({ features: [] })).toEqual(['version']);
    expect(await paths({ version: '4' })).toEqual(['version']);
    expect(await paths({ version: 4, features: { name: 'x' } })).toEqual(['features']);
    expect(await paths({ version: 4 }, '?keep=maybe')).toEqual(['query.keep']);
    await expectRefused(400, send('{"version": 4, "features": ['));
  });

  // Each case breaks one item of a valid document.
  const cases: [string, (d: any) => void, string][] = [
    [
      'an unknown operator',
      (d) => {
        d.featureStrategies[3].constraints[0].operator = 'FOO';
      },
      'featureStrategies[3].constraints[0].operator',
    ],
    [
      'a number operator with text',
      (d) => {
        Object.assign(d.featureStrategies[0].constraints[1], { operator: 'NUM_GT', value: 'ten' });
      },
      'featureStrategies[0].constraints[1].value',
    ],
    [
      'an illegal value of a context field',
      (d) => {
        d.featureStrategies[0].constraints = [{ contextName: 'plan', operator: 'IN', values: ['gold'] }];
      },
      'featureStrategies[0].constraints[0].values',
    ],
    [
      'an extra property on a constraint',
      (d) => {
        d.featureStrategies[0].constraints[0].extra = 1;
      },
      'featureStrategies[0].constraints[0].extra',
    ],
    [
      'an unknown strategy type',
      (d) => {
        d.featureStrategies[2].name = 'nope';
      },
      'featureStrategies[2].name',
    ],
    [
      'a rollout that is no percentage',
      (d) => {
        d.featureStrategies[2].parameters = { rollout: '150' };
      },
      'featureStrategies[2].parameters.rollout',
    ],
    [
      'an unknown segment',
      (d) => {
        d.featureStrategies[0].segments = [99];
      },
      'featureStrategies[0].segments[0]',
    ],
    [
      'a segment of another project',
      (d) => {
        d.featureStrategies[0].segments = [2];
      },
      'featureStrategies[0].segments[0]',
    ],
    [
      'a strategy of an unknown feature',
      (d) => {
        d.featureStrategies[0].featureName = 'ghost';
      },
      'featureStrategies[0].featureName',
    ],
    [
      'a strategy in an unknown environment',
      (d) => {
        d.featureStrategies[0].environment = 'mars';
      },
      'featureStrategies[0].environment',
    ],
    [
      'a strategy of the wrong project',
      (d) => {
        d.featureStrategies[0].projectId = 'beta';
      },
      'featureStrategies[0].projectId',
    ],
    [
      'strategy variants without a variable one',
      (d) => {
        d.featureStrategies[0].variants = [
          { name: 'x', weight: 100, weightType: 'fix', stickiness: 'default' },
        ];
      },
      'featureStrategies[0].variants',
    ],
    [
      'environment variants of the wrong type',
      (d) => {
        d.featureEnvironments[1].variants = [{ name: 'x', weight: '5' }];
      },
      'featureEnvironments[1].variants[0].weight',
    ],
    [
      'a feature in an unknown project',
      (d) => {
        d.features[4].project = 'nowhere';
      },
      'features[4].project',
    ],
    [
      'a feature name that is not URL-friendly',
      (d) => {
        d.features[2].name = 'has space';
      },
      'features[2].name',
    ],
    [
      'a boolean that is text',
      (d) => {
        d.features[0].stale = 'yes';
      },
      'features[0].stale',
    ],
    [
      'a feature listed twice',
      (d) => {
        d.features.push({ ...d.features[0] });
      },
      'features[6]',
    ],
    [
      'an element that is no object',
      (d) => {
        d.features.push(42);
      },
      'features[6]',
    ],
    [
      'a tag of an unknown type',
      (d) => {
        d.featureTags[0].tagType = 'colour';
      },
      'featureTags[0].tagType',
    ],
    [
      'a tag value too short',
      (d) => {
        d.featureTags[0].tagValue = 'x';
      },
      'featureTags[0].tagValue',
    ],
    [
      'a segment with a bad constraint',
      (d) => {
        d.segments[0].constraints = [{ contextName: 'userId', operator: 'IN', values: [] }];
      },
      'segments[0].constraints[0].values',
    ],
    [
      'a project linked to an unknown environment',
      (d) => {
        d.projects[0].environments = ['development', 'mars'];
      },
      'projects[0].environments[1]',
    ],
    [
      'a feature environment with no environment',
      (d) => {
        delete d.featureEnvironments[0].environment;
      },
      'featureEnvironments[0].environment',
    ],
  ];
  for (const [label, breakIt, path] of cases) {
    it(`${label} → 400 at ${path}`, async () => {
      const document = base();
      breakIt(document);
      const body = await expectRefused(400, send(document));
      expect(body.name).toBe('ValidationError');
      expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
      const detail = body.details.find((d: { path: string }) => d.path === path);
      expect(detail.message.length).toBeGreaterThan(10);
    });
  }

  it('lists every problem of a document, not only the first', async () => {
    const shapes: any = base();
    shapes.featureStrategies[3].constraints[0].operator = 'FOO';
    shapes.features[1].stale = 'yes';
    const first = await expectRefused(400, send(shapes));
    expect(first.message).toContain('2 problems');
    expect(first.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'featureStrategies[3].constraints[0].operator',
      'features[1].stale',
    ]);
    // References are checked once every item has its shape: those problems come together too.
    const references: any = base();
    references.features[4].project = 'nowhere';
    references.featureStrategies[0].name = 'nope';
    const second = await expectRefused(400, send(references));
    expect(second.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['features[4].project', 'featureStrategies[0].name']),
    );
  });

  it('keep=false refuses a feature that lives in another project; keep=true leaves it there', async () => {
    const document = {
      version: 4,
      projects: [{ id: 'other', name: 'Other' }],
      features: [{ name: 'elsewhere', project: 'other' }],
    };
    const body = await expectRefused(400, send(document, '?keep=false'));
    expect(body.details).toEqual([
      { path: 'features[0].project', message: expect.stringContaining('"default"') },
    ]);
  });

  it('a large document with one bad item imports nothing', async () => {
    const document: any = stateDocument(300);
    document.featureStrategies[250].constraints[0].operator = 'in';
    const body = await expectRefused(400, send(document));
    expect(body.details).toEqual([
      {
        path: 'featureStrategies[250].constraints[0].operator',
        message: expect.stringContaining('featureStrategies[250].constraints[0].operator'),
      },
    ]);
    const missing = await server.request(
      'GET',
      '/api/admin/projects/default/features/flag-0000',
      admin(server),
    );
    expect(missing.status).toBe(404);
  });
});

describe('E5 segments keep the rules of segments changed by hand', () => {
  it('a name held by another segment, or a project other strategies rule out, is refused', async () => {
    expect((await send(base())()).status).toBe(202);
    const taken = await expectRefused(
      400,
      send({ version: 4, segments: [{ id: 9, name: 'beta-testers', constraints: [] }] }),
    );
    expect(taken.details).toEqual([
      { path: 'segments[0].name', message: expect.stringContaining('"beta-testers"') },
    ]);
    const limited = {
      version: 4,
      segments: [{ id: 1, name: 'beta-testers', project: 'beta', constraints: [] }],
    };
    const used = await expectRefused(400, send(limited, '?keep=false'));
    expect(used.details).toEqual([
      { path: 'segments[0].project', message: expect.stringContaining('alpha, default') },
    ]);
  });
});
