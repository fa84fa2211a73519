import { randomUUID } from 'node:crypto';
import type { TestServer } from '../server.js';
import { BODY_BUDGET } from './cost-requests.js';

type Item = Record<string, unknown>;
type Document = Record<string, unknown>;

/** How many copies of `one` fit beside `base` in the budget (its JSON text, in bytes). */
function copiesThatFit(base: Document, one: (i: number) => Document): number {
  const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const each = size(one(999_999)) - 2;
  return Math.max(1, Math.floor((BODY_BUDGET - size(base)) / (each + 1)));
}

function renamed(items: Item[] | undefined, feature: string, copy: string): Item[] {
  return (items ?? [])
    .filter((item) => item.featureName === feature || item.name === feature)
    .map((item) => ({
      ...item,
      ...(item.featureName === feature ? { featureName: copy } : {}),
      ...(item.name === feature ? { name: copy } : {}),
    }));
}

/** Concatenates each list of the copies into the base document. */
function merge(base: Document, copies: Document[]): Document {
  const out: Document = { ...base };
  for (const copy of copies) {
    for (const [key, list] of Object.entries(copy))
      out[key] = [...((out[key] as Item[]) ?? []), ...(list as Item[])];
  }
  return out;
}

/**
 * The import schemas leave each item to the service (`items: {}` in the document), so the largest
 * valid imports are made from what the server exports: the fixture's feature, with its strategies,
 * segment, variants and tag, copied under new names until the copies fill the 1 MiB body — the
 * largest import anyone but an importer may send, and thousands of features for one request.
 */
export async function importDocuments(
  server: TestServer,
  project: string,
  environment: string,
  feature: string,
): Promise<Map<string, string>> {
  const token = server.adminToken;
  const state = (await server.request('GET', '/api/admin/state/export', { token })).body as Document;
  const stateCopy = (i: number): Document => {
    const name = `${feature}-copy-${i}`;
    const strategies = renamed(state.featureStrategies as Item[], feature, name).map((s) => ({
      ...s,
      id: randomUUID(),
      parameters: { ...(s.parameters as Item), groupId: name },
    }));
    return {
      features: renamed(state.features as Item[], feature, name),
      featureEnvironments: renamed(state.featureEnvironments as Item[], feature, name),
      featureStrategies: strategies,
      featureTags: renamed(state.featureTags as Item[], feature, name),
    };
  };
  const stateBase: Document = {
    ...state,
    features: [],
    featureEnvironments: [],
    featureStrategies: [],
    featureTags: [],
    featureStrategySegments: [],
  };
  const stateCopies = Array.from({ length: copiesThatFit(stateBase, stateCopy) }, (_, i) => stateCopy(i));

  const exported = await server.request('POST', '/api/admin/features-batch/export', {
    token,
    body: { features: [feature], environment },
  });
  const data = exported.body as Document;
  const batchCopy = (i: number): Document => {
    const name = `${feature}-batch-${i}`;
    return {
      features: renamed(data.features as Item[], feature, name),
      featureEnvironments: renamed(data.featureEnvironments as Item[], feature, name),
      featureStrategies: renamed(data.featureStrategies as Item[], feature, name).map((s) => ({
        ...s,
        id: randomUUID(),
      })),
      featureTags: renamed(data.featureTags as Item[], feature, name),
    };
  };
  const batchBase: Document = {
    ...data,
    features: [],
    featureEnvironments: [],
    featureStrategies: [],
    featureTags: [],
  };
  const batchCopies = Array.from(
    { length: copiesThatFit({ project, environment, data: batchBase }, batchCopy) },
    (_, i) => batchCopy(i),
  );
  const batch = JSON.stringify({ project, environment, data: merge(batchBase, batchCopies) });
  return new Map([
    ['POST /api/admin/state/import', JSON.stringify(merge(stateBase, stateCopies))],
    ['POST /api/admin/features-batch/validate', batch],
    ['POST /api/admin/features-batch/import', batch],
  ]);
}
