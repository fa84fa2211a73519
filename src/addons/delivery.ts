import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { readEventsByIds, type StoredEvent } from '../events/service.js';
import type { Logger } from '../log.js';
import { parseTargetUrl, resolveName, resolveTarget, TargetRefusedError } from '../outbound/targets.js';
import { type SecretBox, SecretKeyError } from '../secrets.js';
import { MASK } from './provider.js';
import { secretsOf } from './secret-parameters.js';
import { type Answer, sendRequest } from './send.js';
import {
  type Addon,
  claimDueDeliveries,
  type Delivery,
  findAddon,
  finishDelivery,
  type Outcome,
  releaseDelivery,
  retryDelivery,
} from './store.js';
import { renderTemplate } from './template.js';

/** Deliveries one process tries at once. */
const BATCH = 4;
/** What a stored delivery keeps of the body sent. */
const MAX_BODY_KEPT = 10_000;

/** Shown instead of the URL: its origin only, since its path may hold a token. */
function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname === '/' && !url.search ? '' : `/${MASK}`}`;
}

function describeEvent(event: StoredEvent) {
  return {
    id: event.id,
    type: event.type,
    createdBy: event.createdBy,
    createdByUserId: event.createdByUserId,
    createdAt: event.createdAt.toISOString(),
    project: event.project,
    featureName: event.featureName,
    environment: event.environment,
    data: event.data,
    preData: event.preData,
  };
}

/** One sentence about an event, in Markdown, for `{{eventMarkdown}}`. */
function markdownOf(event: StoredEvent): string {
  const parts = [`**${event.type}** by ${event.createdBy}`];
  if (event.featureName) parts.push(`on the flag *${event.featureName}*`);
  if (event.project) parts.push(`in the project *${event.project}*`);
  if (event.environment) parts.push(`in the environment *${event.environment}*`);
  return parts.join(' ');
}

/** What the worker uses: the deliveries' table, the key that opens the secrets, the integrations' limits. */
export interface DeliveryDeps {
  db: Database;
  log: Logger;
  secrets: SecretBox;
  config: Pick<Config, 'integrations'>;
}

interface Attempt {
  outcome: Outcome;
  /** Whether trying again may help (the receiver failed, or could not be reached). */
  retry: boolean;
}

const RETRIED_STATUSES = new Set([408, 425, 429]);

/**
 * The background worker of integrations: takes due deliveries (woken by a local commit, and every
 * `pollMs` for those other processes queued or retries that came due), sends them and records the
 * outcome. A failed attempt is tried again after `retryDelayMs`, doubled each time, up to
 * `attempts` in all.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly aborter = new AbortController();
  private failing = false;
  private started = false;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    this.aborter.abort();
    await this.running;
  }

  wake(): void {
    if (this.stopped || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    const { timeoutMs } = this.deps.config.integrations;
    try {
      do {
        this.again = false;
        // Long enough for an attempt and the writing of its outcome; a process that died holding
        // one leaves it due again after that.
        const taken = await claimDueDeliveries(this.deps.db, BATCH, timeoutMs + 30_000);
        if (taken.length === BATCH) this.again = true;
        await Promise.all(taken.map((d) => this.deliver(d)));
      } while (this.again && !this.stopped);
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.deps.log.error({ err: error }, 'integrations: cannot read or record deliveries; trying again');
      this.failing = true;
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { attempts, retryDelayMs } = this.deps.config.integrations;
    const addon = await findAddon(this.deps.db, delivery.addonId);
    if (!addon) return;
    const event = (await readEventsByIds(this.deps.db, [delivery.eventId])).get(delivery.eventId);
    const attempt: Attempt = !addon.enabled
      ? {
          retry: false,
          outcome: failed('The integration was turned off before the event was delivered.', {}),
        }
      : event
        ? await this.attempt(addon, event, delivery.attempts)
        : { retry: false, outcome: failed('The event is no longer there.', {}) };
    if (this.stopped && this.aborter.signal.aborted && attempt.retry) {
      await releaseDelivery(this.deps.db, delivery.id);
      return;
    }
    if (attempt.retry && delivery.attempts < attempts) {
      const delay = retryDelayMs * 2 ** (delivery.attempts - 1);
      await retryDelivery(this.deps.db, delivery.id, delay, attempt.outcome);
      this.wakeIn(delay);
      return;
    }
    await finishDelivery(this.deps.db, delivery.id, attempt.outcome);
    // The receiver's failure, not the server's: recorded for /addons/:id/events, noted at info level.
    if (attempt.outcome.state === 'failed') {
      this.deps.log.info(
        { integrationId: addon.id, eventId: delivery.eventId, attempts: delivery.attempts },
        `integrations: a delivery failed: ${attempt.outcome.stateDetails}`,
      );
    }
  }

  private wakeIn(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.wake(), delayMs + 5);
    this.retryTimer.unref();
  }

  private async attempt(addon: Addon, event: StoredEvent, number: number): Promise<Attempt> {
    const { timeoutMs, attempts, allowed } = this.deps.config.integrations;
    let parameters: Record<string, string>;
    try {
      parameters = { ...addon.parameters, ...secretsOf(this.deps.secrets, addon) };
    } catch (error) {
      if (!(error instanceof SecretKeyError)) throw error;
      return { retry: false, outcome: failed(`Cannot read the integration's secrets: ${error.message}`, {}) };
    }
    const eventJson = describeEvent(event);
    const template = parameters.bodyTemplate;
    const body = template
      ? renderTemplate(template, {
          event: eventJson,
          eventJson: JSON.stringify(eventJson),
          eventMarkdown: markdownOf(event),
        })
      : JSON.stringify(eventJson);
    const method = parameters.method ?? 'POST';
    const contentType = parameters.contentType ?? 'application/json';
    const headers: Record<string, string> = {
      'content-type': contentType,
      'user-agent': 'Flagpole',
      ...(parameters.authorization ? { authorization: parameters.authorization } : {}),
      // Lower case, so a custom header replaces one of the same name instead of going twice.
      ...Object.fromEntries(
        Object.entries(JSON.parse(parameters.customHeaders ?? '{}') as Record<string, string>).map(
          ([k, v]) => [k.toLowerCase(), v],
        ),
      ),
    };
    const url = parseTargetUrl(parameters.url!);
    const details = {
      url: shownUrl(url),
      method,
      contentType,
      headers: Object.keys(headers),
      body: body.length > MAX_BODY_KEPT ? `${body.slice(0, MAX_BODY_KEPT)}…` : body,
      attempts: number,
    };
    const of = `(attempt ${number} of ${attempts})`;
    let answer: Answer;
    try {
      const addresses = await resolveTarget(url, allowed, resolveName);
      answer = await sendRequest({
        url,
        addresses,
        method,
        headers,
        body,
        timeoutMs,
        signal: this.aborter.signal,
      });
    } catch (error) {
      if (error instanceof TargetRefusedError) {
        return { retry: false, outcome: failed(`The target was refused: ${error.message}`, details) };
      }
      const reason = error instanceof Error ? error.message : String(error);
      return { retry: true, outcome: failed(`The request failed ${of}: ${reason}.`, details) };
    }
    const answered = { ...details, status: answer.status };
    if (answer.status >= 200 && answer.status < 300) {
      return {
        retry: false,
        outcome: {
          state: 'success',
          stateDetails: `Delivered: the receiver answered ${answer.status} ${of}.`,
          details: answered,
        },
      };
    }
    if (answer.status >= 300 && answer.status < 400) {
      return {
        retry: false,
        outcome: failed(
          `The receiver answered ${answer.status}, a redirect, which is not followed: give the final URL.`,
          answered,
        ),
      };
    }
    const retry = answer.status >= 500 || RETRIED_STATUSES.has(answer.status);
    return { retry, outcome: failed(`The receiver answered ${answer.status} ${of}.`, answered) };
  }
}

function failed(stateDetails: string, details: Record<string, unknown>): Outcome {
  return { state: 'failed', stateDetails, details };
}
