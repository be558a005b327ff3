import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import {
  claimDueDeliveriesOfAllAccounts,
  type DeliveryClaim,
  type DeliveryContext,
  deliveryContexts,
  disableEndpointRow,
  finishDelivery,
  recordEndpointFailure,
  recordEndpointSuccess,
  releaseDeliveryClaims,
} from '../modules/webhooks/webhooks.queue.repository.js';
import { webhookHeaders } from '../modules/webhooks/webhooks.signing.js';
import {
  postWebhook,
  type WebhookRequest,
  type WebhookResponse,
} from '../modules/webhooks/webhooks.transport.js';
import { type Clock, systemClock } from './clock.js';
import type { WorkerLog } from './mail-worker.js';
import { eventsPerFanOutBatch, fanOutWebhookEvents } from './webhook-fanout.js';
import { eachConcurrently, IdleWait } from './worker-pacing.js';

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
  const base = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1] ?? 0;
  return Math.round(base * (0.9 + 0.2 * random()));
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

type Outcome = keyof WebhookTotals | 'lost';

/**
 * The webhook worker, built like the mail worker. Two loops: the fan-out turns stored events
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
  private readonly batchSize: number;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly idle = new IdleWait();
  private readonly fanOutIdle = new IdleWait();
  private readonly eventsPerBatch: number;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.post = options.post ?? postWebhook;
    this.batchSize = Math.max(10, options.concurrency * 4);
    this.eventsPerBatch = eventsPerFanOutBatch(options.maxEndpoints ?? 20);
  }

  /** Fans out one batch of stored events into deliveries. */
  async fanOutBatch(): Promise<{ events: number; deliveries: number; full: boolean }> {
    if (this.stopping) return { events: 0, deliveries: 0, full: false };
    return fanOutWebhookEvents(this.options.db, this.eventsPerBatch);
  }

  /** Claims and delivers one batch. */
  async runBatch(): Promise<WebhookTotals & { claimed: number; full: boolean }> {
    const totals: WebhookTotals = { succeeded: 0, retried: 0, failed: 0, cancelled: 0 };
    if (this.stopping) return { ...totals, claimed: 0, full: false };
    const { db, leaseMs, concurrency } = this.options;
    const now = this.clock.now();
    // Cross-account by design: one queue serves every account (each claim carries its account).
    const claims = await claimDueDeliveriesOfAllAccounts(db, {
      now,
      limit: this.batchSize,
      leaseUntil: now + leaseMs,
    });
    if (claims.length === 0) return { ...totals, claimed: 0, full: false };
    const contexts = await deliveryContexts(db, claims);
    // A delivery begun in the lease's first half ends (timeout) before the claim does.
    const startBy = now + leaseMs / 2;
    const unstarted: DeliveryClaim[] = [];
    await eachConcurrently(claims, concurrency, async (claim) => {
      if (this.stopping || this.clock.now() > startBy) {
        unstarted.push(claim);
        return;
      }
      const outcome = await this.deliver(claim, contexts.get(claim.id));
      if (outcome !== 'lost') totals[outcome]++;
    });
    if (unstarted.length > 0) await releaseDeliveryClaims(db, unstarted, this.clock.now());
    return { ...totals, claimed: claims.length, full: claims.length === this.batchSize };
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
    this.loop ??= Promise.all([this.deliveryLoop(), this.fanOutLoop()]).then(() => {});
  }

  private async deliveryLoop(): Promise<void> {
    while (!this.stopping) {
      let full = false;
      try {
        full = (await this.runBatch()).full;
      } catch (err) {
        this.options.log.error({ err }, 'webhook worker: could not process the queue');
      }
      if (!full && !this.stopping) await this.idle.wait(this.options.pollMs ?? 1000);
    }
  }

  /** Batch after batch while events wait, yielding to the event loop in between; else polls. */
  private async fanOutLoop(): Promise<void> {
    while (!this.stopping) {
      let full = false;
      try {
        const batch = await this.fanOutBatch();
        full = batch.full;
        if (batch.deliveries > 0) this.idle.wake();
      } catch (err) {
        this.options.log.error({ err }, 'webhook worker: could not fan out events');
      }
      if (full) await new Promise((resolve) => setImmediate(resolve));
      else if (!this.stopping) await this.fanOutIdle.wait(this.options.pollMs ?? 1000);
    }
  }

  wake(): void {
    this.fanOutIdle.wake();
    this.idle.wake();
  }

  /** Stops claiming; deliveries under way finish (each within its timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
  }

  /** Signs and sends one claimed delivery and records what happened; never throws. */
  private async deliver(claim: DeliveryClaim, ctx: DeliveryContext | undefined): Promise<Outcome> {
    const { db, log, timeoutMs, allowedNetworks } = this.options;
    try {
      if (!ctx) return 'lost'; // its endpoint was deleted meanwhile, the delivery with it
      if (ctx.disabled_at !== null) {
        const done = await finishDelivery(db, claim, {
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
        const done = await finishDelivery(db, claim, {
          ...answer,
          status: 'succeeded',
          succeeded_at: now,
          last_error: null,
        });
        await recordEndpointSuccess(db, claim.accountId, ctx.endpoint_id);
        return done ? 'succeeded' : 'lost';
      }
      if (response.status === 410) {
        const done = await finishDelivery(db, claim, {
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
      const giveUp = claim.attempts >= MAX_ATTEMPTS;
      const done = await finishDelivery(db, claim, {
        ...answer,
        last_error: response.error.slice(0, 500),
        ...(giveUp
          ? { status: 'failed' as const }
          : {
              status: 'queued' as const,
              next_attempt_at: now + webhookRetryDelay(claim.attempts, this.random),
            }),
      });
      if (!done) return 'lost';
      return giveUp ? 'failed' : 'retried';
    } catch (err) {
      // The database failed us: the claim runs out and the delivery is tried again then.
      log.error({ err, delivery: claim.id }, 'webhook worker: could not record a delivery');
      return 'lost';
    }
  }
}
