import type { Config } from '../core/config.js';
import type { Db } from '../core/db/database.js';
import { afterFailure, scheduledDelay } from '../core/outbox/backoff.js';
import { type Clock, systemClock } from '../core/outbox/clock.js';
import type { OutboxLog as WorkerLog } from '../core/outbox/outbox.js';
import { type OutboxOutcome, OutboxWorker } from '../core/outbox/outbox.js';
import { IdleWait } from '../core/outbox/pacing.js';
import {
  type DeliveryClaim,
  type DeliveryContext,
  deliveryContexts,
  disableEndpointRow,
  recordEndpointFailure,
  recordEndpointSuccess,
  webhookOutboxStore,
} from '../modules/integrations/webhooks/webhooks.queue.repository.js';
import { webhookHeaders } from '../modules/integrations/webhooks/webhooks.signing.model.js';
import {
  postWebhook,
  type WebhookRequest,
  type WebhookResponse,
} from '../modules/integrations/webhooks/webhooks.transport.service.js';
import { eventsPerFanOutBatch, fanOutWebhookEvents } from './webhook-fanout.js';

/**
 * The Standard Webhooks retry schedule: after the first attempt (at once) fails, the next ones
 * wait 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each with up to ±10 % jitter. After the
 * eighth attempt fails the delivery is `failed` (it can be resent).
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint every attempt to which has failed for this long is disabled (reason `failing`). */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

export function webhookRetryDelay(attempt: number, random: () => number = Math.random): number {
  return scheduledDelay(RETRY_DELAYS_MS, attempt, random);
}

export interface WebhookWorkerOptions
  extends Pick<Config['webhooks'], 'timeoutMs' | 'leaseMs' | 'concurrency' | 'allowedNetworks'>,
    Partial<Pick<Config['webhooks'], 'maxEndpoints'>> {
  db: Db;
  log: WorkerLog;
  clock?: Clock;
  random?: () => number;
  /** How often an idle worker looks for events to fan out and due deliveries (default 1 s). */
  pollMs?: number;
  /** The HTTP client (tests may observe it; the real one by default). */
  post?: (request: WebhookRequest) => Promise<WebhookResponse>;
}

export interface WebhookTotals {
  succeeded: number;
  retried: number;
  failed: number;
  cancelled: number;
}

const OUTCOMES = ['succeeded', 'retried', 'failed', 'cancelled'] as const;

type Outcome = OutboxOutcome<keyof WebhookTotals>;

/**
 * The webhook worker, the outbox's webhook kind (core/outbox/outbox.ts runs the delivery loop,
 * the claims, the leases and the fencing, as for mail). Two loops: the fan-out turns stored events
 * into one queued delivery per listening endpoint, a small batch per transaction
 * (webhook-fanout.ts); the delivery loop claims due deliveries in small batches with a lease,
 * signs and POSTs each (at most `concurrency` at once), and records the outcome. A worker killed
 * mid-delivery leaves its claims to run out; they are then claimed again and sent again with the
 * same `webhook-id` (at least once: receivers dedupe on it). Several workers can share the queue:
 * claims, of events and of deliveries, are disjoint.
 */
export class WebhookWorker {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly post: (request: WebhookRequest) => Promise<WebhookResponse>;
  private readonly deliveries: OutboxWorker<
    DeliveryClaim,
    Parameters<typeof webhookOutboxStore.finish>[2],
    Map<number, DeliveryContext>,
    keyof WebhookTotals
  >;
  private stopping = false;
  private fanOut: Promise<void> | undefined;
  private readonly fanOutIdle = new IdleWait();
  private readonly eventsPerBatch: number;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.post = options.post ?? postWebhook;
    this.eventsPerBatch = eventsPerFanOutBatch(options.maxEndpoints ?? 20);
    const { db, log, leaseMs, concurrency, pollMs } = options;
    this.deliveries = new OutboxWorker(
      {
        name: 'webhook worker',
        store: webhookOutboxStore,
        outcomes: OUTCOMES,
        prepare: (claims) => deliveryContexts(db, claims),
        handle: (claim, contexts) => this.deliver(claim, contexts.get(claim.id)),
      },
      {
        db,
        log,
        clock: this.clock,
        leaseMs,
        concurrency,
        batchSize: Math.max(10, concurrency * 4),
        ...(pollMs === undefined ? {} : { pollMs }),
      },
    );
  }

  /** Fans out one batch of stored events into deliveries. */
  async fanOutBatch(): Promise<{ events: number; deliveries: number; full: boolean }> {
    if (this.stopping) return { events: 0, deliveries: 0, full: false };
    return fanOutWebhookEvents(this.options.db, this.eventsPerBatch);
  }

  /** Claims and delivers one batch. */
  runBatch(): Promise<WebhookTotals & { claimed: number; full: boolean }> {
    return this.deliveries.runBatch();
  }

  /** Fans out and delivers until nothing is left to do now (tests, one-off runs). */
  async drain(): Promise<WebhookTotals> {
    const totals: WebhookTotals = { succeeded: 0, retried: 0, failed: 0, cancelled: 0 };
    for (;;) {
      let fanned = 0;
      for (let full = true; full; ) {
        const batch = await this.fanOutBatch();
        fanned += batch.events;
        full = batch.full;
      }
      const batch = await this.runBatch();
      for (const key of Object.keys(totals) as (keyof WebhookTotals)[]) totals[key] += batch[key];
      if (batch.claimed === 0 && fanned === 0) return totals;
    }
  }

  start(): void {
    this.deliveries.start();
    this.fanOut ??= this.fanOutLoop();
  }

  /** Batch after batch while events wait, yielding to the event loop in between; else polls. */
  private async fanOutLoop(): Promise<void> {
    while (!this.stopping) {
      let full = false;
      try {
        const batch = await this.fanOutBatch();
        full = batch.full;
        if (batch.deliveries > 0) this.deliveries.wake();
      } catch (err) {
        this.options.log.error({ err }, 'webhook worker: could not fan out events');
      }
      if (full) await new Promise((resolve) => setImmediate(resolve));
      else if (!this.stopping) await this.fanOutIdle.wait(this.options.pollMs ?? 1000);
    }
  }

  wake(): void {
    this.fanOutIdle.wake();
    this.deliveries.wake();
  }

  /** Stops claiming; deliveries under way finish (each within its timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await Promise.all([this.deliveries.stop(), this.fanOut]);
  }

  /** Signs and sends one claimed delivery and records what happened; never throws. */
  private async deliver(claim: DeliveryClaim, ctx: DeliveryContext | undefined): Promise<Outcome> {
    const { db, log, timeoutMs, allowedNetworks } = this.options;
    try {
      if (!ctx) return 'lost'; // its endpoint was deleted meanwhile, the delivery with it
      if (ctx.disabled_at !== null) {
        const done = await webhookOutboxStore.finish(db, claim, {
          status: 'cancelled',
          last_error: 'the endpoint is disabled',
        });
        return done ? 'cancelled' : 'lost';
      }
      const sentAt = this.clock.now();
      const secrets = [ctx.secret];
      if (ctx.previous_secret && (ctx.previous_secret_expires_at ?? 0) > sentAt)
        secrets.push(ctx.previous_secret);
      const headers = webhookHeaders(secrets, ctx.message_id, Math.floor(sentAt / 1000), ctx.payload);
      const response = await this.post({
        url: ctx.url,
        headers,
        body: ctx.payload,
        timeoutMs,
        allowedNetworks,
      });
      const now = this.clock.now();
      const answer = {
        last_attempt_at: sentAt,
        response_status: response.status,
        response_excerpt: response.excerpt,
      };
      if (response.ok) {
        const done = await webhookOutboxStore.finish(db, claim, {
          ...answer,
          status: 'succeeded',
          succeeded_at: now,
          last_error: null,
        });
        await recordEndpointSuccess(db, claim.accountId, ctx.endpoint_id);
        return done ? 'succeeded' : 'lost';
      }
      if (response.status === 410) {
        const done = await webhookOutboxStore.finish(db, claim, {
          ...answer,
          status: 'failed',
          last_error: response.error,
        });
        await disableEndpointRow(db, claim.accountId, ctx.endpoint_id, 'gone', now);
        log.warn(
          { endpoint: ctx.endpoint_id, account: claim.accountId },
          'webhook worker: endpoint answered 410 Gone; disabled',
        );
        return done ? 'failed' : 'lost';
      }
      await recordEndpointFailure(db, claim.accountId, ctx.endpoint_id, sentAt);
      if (ctx.failing_since !== null && now - ctx.failing_since >= DISABLE_AFTER_FAILING_MS) {
        await disableEndpointRow(db, claim.accountId, ctx.endpoint_id, 'failing', now);
        log.warn(
          { endpoint: ctx.endpoint_id, account: claim.accountId },
          'webhook worker: endpoint failing for 5 days; disabled',
        );
      }
      const next = afterFailure(
        { maxAttempts: MAX_ATTEMPTS, delayMs: (attempts) => webhookRetryDelay(attempts, this.random) },
        claim.attempts,
        now,
      );
      const done = await webhookOutboxStore.finish(db, claim, {
        ...answer,
        last_error: response.error.slice(0, 500),
        ...next,
      });
      if (!done) return 'lost';
      return next.status === 'failed' ? 'failed' : 'retried';
    } catch (err) {
      // The database failed us: the claim runs out and the delivery is tried again then.
      log.error({ err, delivery: claim.id }, 'webhook worker: could not record a delivery');
      return 'lost';
    }
  }
}
