import { randomBytes } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { TokenIdentity } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { evaluate, type FlagSet } from './evaluation/evaluate.js';
import type { Context } from './evaluation/types.js';
import { FrontendContextBody, FrontendToggles } from './schemas.js';
import { assertReady, type FlagSnapshot } from './snapshot.js';

const TOP_LEVEL_FIELDS = new Set(['userId', 'sessionId', 'remoteAddress', 'appName', 'environment']);

function text(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v === null || typeof v === 'object') return undefined;
  return String(v);
}

/**
 * The evaluation context of a frontend request: the standard fields at the top, `properties[x]`
 * and every other field in `properties`; a missing session id gets a random one and a missing
 * address the caller's.
 */
export function contextFrom(fields: Record<string, unknown>, callerAddress: string): Context {
  const properties: Record<string, string> = {};
  const context: Context = { properties };
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, v] of Object.entries(value)) {
        const s = text(v);
        if (s !== undefined) properties[name] = s;
      }
      continue;
    }
    const s = text(value);
    if (s === undefined) continue;
    const nested = /^properties\[(.+)\]$/.exec(key);
    if (nested) properties[nested[1]!] = s;
    else if (TOP_LEVEL_FIELDS.has(key)) context[key] = s;
    else properties[key] = s;
  }
  context.sessionId ??= String(randomBytes(4).readUInt32BE() % 1_000_000_000);
  context.remoteAddress ??= callerAddress;
  return context;
}

function toggles(snapshot: FlagSnapshot, token: TokenIdentity, context: Context) {
  const environment = token.environment;
  const flags: FlagSet = {
    feature: (name) => snapshot.feature(environment, name),
    segment: (id) => snapshot.segment(id),
  };
  const everyProject = token.projects.includes('*');
  const result = [];
  for (const feature of snapshot.features(environment)) {
    if (!everyProject && !token.projects.includes(feature.project)) continue;
    const { enabled, variant } = evaluate(feature, context, flags);
    if (!enabled) continue;
    result.push({
      name: feature.name,
      enabled: true,
      variant: {
        name: variant.name,
        enabled: variant.enabled,
        feature_enabled: true,
        featureEnabled: true,
        ...(variant.payload ? { payload: variant.payload } : {}),
      },
      impressionData: feature.impressionData,
    });
  }
  return { toggles: result };
}

export function frontendRoutes(app: App, _ctx: AppContext, snapshot: FlagSnapshot): void {
  const tags = ['Frontend API'];

  app.get(
    '/api/frontend',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          'The flags that are on for the context in the query, evaluated here, for browser and mobile SDKs',
        response: { 200: FrontendToggles },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const context = contextFrom(request.query as Record<string, unknown>, request.ip);
      reply.header('cache-control', 'no-cache');
      return toggles(snapshot, identityOf(request) as TokenIdentity, context);
    },
  );

  app.post(
    '/api/frontend',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: 'As the GET, with the context in the body',
        body: FrontendContextBody,
        response: { 200: FrontendToggles },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const context = contextFrom(request.body.context ?? {}, request.ip);
      reply.header('cache-control', 'no-cache');
      return toggles(snapshot, identityOf(request) as TokenIdentity, context);
    },
  );
}
