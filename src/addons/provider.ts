import { EVENT_SCOPES } from '../events/types.js';

export interface ProviderParameter {
  name: string;
  displayName: string;
  type: 'url' | 'text' | 'textfield';
  description: string;
  placeholder?: string;
  required: boolean;
  /** Never shown back (masked) nor written to events or logs; stored encrypted with a key. */
  sensitive: boolean;
}

/** What GET /api/admin/addons says Flagpole offers: Unleash's `addonTypeSchema`. */
export interface Provider {
  name: string;
  displayName: string;
  description: string;
  documentationUrl: string;
  howTo: string;
  parameters: ProviderParameter[];
  events: string[];
}

/** How Unleash shows a sensitive parameter; sent back in an update, it keeps the stored value. */
export const MASK = '*****';

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;

/** Every event type Flagpole records: a webhook may listen to any of them. */
export const EVENT_TYPES: readonly string[] = Object.keys(EVENT_SCOPES).sort();

export const WEBHOOK: Provider = {
  name: 'webhook',
  displayName: 'Webhook',
  description: 'Sends an HTTP request to a URL of yours for each change it listens to.',
  documentationUrl: 'https://docs.getunleash.io/integrate/webhook',
  howTo:
    'Give the URL to call and pick the events to listen to. Flagpole sends each event, as JSON or in ' +
    'the body the template makes of it, and tries again when the receiver fails.',
  parameters: [
    {
      name: 'url',
      displayName: 'Webhook URL',
      type: 'url',
      description: 'The http(s) URL called for each event (tried up to three times).',
      required: true,
      sensitive: true,
    },
    {
      name: 'method',
      displayName: 'HTTP method',
      type: 'text',
      placeholder: 'POST',
      description: 'POST (the default), PUT or PATCH.',
      required: false,
      sensitive: false,
    },
    {
      name: 'contentType',
      displayName: 'Content-Type',
      type: 'text',
      placeholder: 'application/json',
      description: 'The Content-Type header sent; application/json by default.',
      required: false,
      sensitive: false,
    },
    {
      name: 'authorization',
      displayName: 'Authorization',
      type: 'text',
      placeholder: '',
      description: 'The Authorization header sent, if any.',
      required: false,
      sensitive: true,
    },
    {
      name: 'customHeaders',
      displayName: 'Extra HTTP Headers',
      type: 'textfield',
      placeholder: '{\n  "X-Api-Key": "secret"\n}',
      description: 'More headers to send: a JSON object whose keys and values are strings.',
      required: false,
      sensitive: true,
    },
    {
      name: 'bodyTemplate',
      displayName: 'Body template',
      type: 'textfield',
      placeholder:
        '{\n  "event": "{{event.type}}",\n  "createdBy": "{{event.createdBy}}",\n  "feature": "{{event.featureName}}",\n  "json": {{{eventJson}}}\n}',
      description:
        'The body to send, with {{event.type}}, {{event.data.name}}… put in (HTML-escaped; {{{…}}} as is); ' +
        '{{{eventJson}}} is the whole event and {{eventMarkdown}} a sentence about it. Empty: the event as JSON.',
      required: false,
      sensitive: false,
    },
  ],
  events: [...EVENT_TYPES],
};

export const PROVIDERS: readonly Provider[] = [WEBHOOK];

export const SENSITIVE = new Set(WEBHOOK.parameters.filter((p) => p.sensitive).map((p) => p.name));
