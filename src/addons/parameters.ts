import type { Static } from '@sinclair/typebox';
import { throwIfProblems } from '../http/check.js';
import type { ErrorDetail } from '../http/errors.js';
import {
  type OutboundRules,
  parseTargetUrl,
  resolveName,
  resolveTarget,
  TargetRefusedError,
} from '../outbound/targets.js';
import type { SecretBox } from '../secrets.js';
import { EVENT_TYPES, MASK, PROVIDERS, SENSITIVE, WEBHOOK, WEBHOOK_METHODS } from './provider.js';
import type { AddonBody } from './schemas.js';
import type { AddonValues } from './store.js';

export type AddonInput = Static<typeof AddonBody>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** Headers the request itself sets: a custom value would break it or lie about it. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/** The custom headers' problems (never quoting a value: they are secret). */
function headerProblems(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'The custom headers must be a JSON object, such as {"X-Api-Key": "…"}: this is not JSON.';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return 'The custom headers must be a JSON object whose keys and values are strings.';
  }
  const entries = Object.entries(parsed);
  if (entries.length > 50) return 'Send at most 50 custom headers.';
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) return `"${name.slice(0, 100)}" is not a valid header name.`;
    if (RESERVED_HEADERS.has(name.toLowerCase())) return `The header "${name}" is set by Flagpole itself.`;
    if (typeof value !== 'string') return `The value of the header "${name}" must be a string.`;
    if (CONTROL.test(value))
      return `The value of the header "${name}" holds a line break or control character.`;
  }
  return null;
}

function parameterProblems(parameters: Record<string, string>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const known = new Set(WEBHOOK.parameters.map((p) => p.name));
  const add = (name: string, message: string) => problems.push({ path: `parameters.${name}`, message });
  for (const name of Object.keys(parameters)) {
    if (!known.has(name))
      add(name, `The webhook has no parameter "${name}"; it takes ${[...known].join(', ')}.`);
  }
  if (parameters.url === undefined) add('url', 'The webhook needs the `url` to call.');
  const { method, contentType, authorization, customHeaders } = parameters;
  if (method !== undefined && !(WEBHOOK_METHODS as readonly string[]).includes(method.toUpperCase())) {
    add('method', `The method must be one of ${WEBHOOK_METHODS.join(', ')}.`);
  }
  if (contentType !== undefined && (CONTROL.test(contentType) || contentType.length > 200)) {
    add('contentType', 'The content type must be one line of at most 200 characters.');
  }
  if (authorization !== undefined && (CONTROL.test(authorization) || authorization.length > 8192)) {
    add('authorization', 'The Authorization header must be one line of at most 8192 characters.');
  }
  if (customHeaders !== undefined) {
    const problem = headerProblems(customHeaders);
    if (problem) add('customHeaders', problem);
  }
  return problems;
}

/**
 * A stored secret goes only where it went before: whoever may edit an integration could otherwise
 * point it at a server of theirs, send the secrets back masked and have the next event deliver
 * them there. A new destination needs every secret sent again.
 */
function inheritedSecretProblems(url: string | undefined, urlBefore: string | undefined, kept: string[]) {
  if (url === undefined || urlBefore === undefined || url === urlBefore) return [];
  return kept.map(
    (name): ErrorDetail => ({
      path: `parameters.${name}`,
      message: `The URL changed, and a stored ${name} is never sent to a new address: send the ${name} itself (or leave it out).`,
    }),
  );
}

/**
 * A body as stored: its parameters checked (the URL's host resolved and refused when it points
 * inside, unless allowed), empty ones dropped, masked ones taken from `before`, the secret ones
 * sealed. Problems are 400s naming the field.
 */
export async function checkAddon(
  secrets: SecretBox,
  input: AddonInput,
  before: Record<string, string> | undefined,
  rules: OutboundRules,
): Promise<AddonValues> {
  const problems: ErrorDetail[] = [];
  if (!PROVIDERS.some((p) => p.name === input.provider)) {
    problems.push({
      path: 'provider',
      message: `There is no integration "${input.provider}": Flagpole offers ${PROVIDERS.map((p) => p.name).join(', ')}.`,
    });
  }
  const parameters: Record<string, string> = {};
  const kept: string[] = [];
  for (const [name, value] of Object.entries(input.parameters)) {
    if (value === '') continue;
    if (value === MASK && SENSITIVE.has(name)) {
      if (before?.[name] !== undefined) {
        parameters[name] = before[name]!;
        kept.push(name);
      } else
        problems.push({
          path: `parameters.${name}`,
          message: `"${MASK}" stands for the value stored, and none is: send the ${name} itself.`,
        });
      continue;
    }
    parameters[name] = name === 'method' ? value.toUpperCase() : value;
  }
  problems.push(...inheritedSecretProblems(parameters.url, before?.url, kept));
  problems.push(...parameterProblems(parameters));
  const unknown = input.events.filter((type) => !EVENT_TYPES.includes(type));
  if (unknown.length) {
    problems.push({
      path: 'events',
      message: `Flagpole records no events of the type${unknown.length > 1 ? 's' : ''} ${unknown
        .slice(0, 10)
        .map((t) => `"${t}"`)
        .join(', ')}; see the provider's \`events\`.`,
    });
  }
  if (problems.length === 0) {
    try {
      await resolveTarget(parseTargetUrl(parameters.url!), rules, resolveName);
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      problems.push({ path: 'parameters.url', message: error.message });
    }
  }
  throwIfProblems(problems);
  const open: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters)) (SENSITIVE.has(name) ? secret : open)[name] = value;
  const unique = (list: string[] = []) => [...new Set(list)];
  return {
    provider: input.provider,
    description: input.description ?? null,
    enabled: input.enabled,
    parameters: open,
    secrets: secrets.seal(JSON.stringify(secret)),
    events: unique(input.events),
    projects: unique(input.projects),
    environments: unique(input.environments),
  };
}
