import type { Config } from '../core/config.js';
import type { Db } from '../core/db/database.js';
import { afterFailure, retryDelay } from '../core/outbox/backoff.js';
import { type Clock, systemClock } from '../core/outbox/clock.js';
import { type OutboxLog, type OutboxOutcome, OutboxWorker } from '../core/outbox/outbox.js';
import { SendRate } from '../core/outbox/send-rate.js';
import { type ComposedMail, composeMessages } from '../modules/mail/mail.composers.service.js';
import { type Claim, mailOutboxStore, recordHandOff, recordSent } from '../modules/mail/mail.repository.js';
import {
  classifySendError,
  MailSendError,
  type MailTransport,
} from '../modules/mail/mail.transport.service.js';
import { loadSubscriptions } from '../subscriptions.js';

/** What the workers log through (pino's logger fits). */
export type WorkerLog = OutboxLog;

/** The mail settings of `config.mail` (see config.ts), and what the worker works with. */
export interface MailWorkerOptions
  extends Pick<
    Config['mail'],
    'from' | 'ratePerMinute' | 'concurrency' | 'maxAttempts' | 'retryBaseMs' | 'leaseMs'
  > {
  db: Db;
  transport: MailTransport;
  /** Where learners reach the server: the links in the mail start with it. */
  baseUrl: string;
  /** Where simulations' links and tracking images point (PHISH_URL); `baseUrl` when absent. */
  phishBaseUrl?: string;
  linkTtlMs: number;
  log: WorkerLog;
  clock?: Clock;
  /** Most messages claimed at once (default: 4 per connection, 10 to 50). */
  batchSize?: number;
  /** How often an idle worker looks for due messages (default 1 s). */
  pollMs?: number;
  /** Jitter source (tests pin it). */
  random?: () => number;
}

export interface MailTotals {
  sent: number;
  retried: number;
  failed: number;
  cancelled: number;
}

const OUTCOMES = ['sent', 'retried', 'failed', 'cancelled'] as const;

type Outcome = OutboxOutcome<keyof MailTotals>;
type Composed = Required<ComposedMail>;

/** The longest the worker waits before trying an unavailable mail server again. */
const MAX_PAUSE_MS = 5 * 60_000;

/**
 * The mail worker, the outbox's mail kind (core/outbox/outbox.ts runs the loop, the claims, the
 * leases and the fencing): claims due messages from the queue in small batches, renders each from
 * current data (through each kind's composer: mail.composers.service.ts), records what it is
 * about to send, sends with at most `concurrency` in flight and `ratePerMinute` a minute, and
 * records the outcome right after the server's answer.
 * Retries back off exponentially; `maxAttempts` failures or a permanent refusal fail a message.
 * Several workers (processes, machines) can share one queue: claims are disjoint, and an
 * expired claim (a worker that died mid-send) is taken over, in doubt when that worker had
 * handed the message to the SMTP server. When the mail server itself is unavailable, the worker
 * pauses (backing off up to 5 minutes) instead of spending every queued message's attempts on
 * it; one message at a time probes whether it is back.
 */
export class MailWorker {
  private readonly options: Required<Omit<MailWorkerOptions, 'clock' | 'random'>>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly outbox: OutboxWorker<
    Claim,
    Parameters<typeof mailOutboxStore.finish>[2],
    Composed,
    keyof MailTotals
  >;
  private serverFailures = 0;

  constructor(options: MailWorkerOptions) {
    loadSubscriptions();
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    const batchSize = options.batchSize ?? Math.min(50, Math.max(10, options.concurrency * 4));
    this.options = {
      pollMs: 1000,
      ...options,
      phishBaseUrl: options.phishBaseUrl ?? options.baseUrl,
      batchSize,
    };
    const { db, log, leaseMs, concurrency, pollMs } = this.options;
    this.outbox = new OutboxWorker(
      {
        name: 'mail worker',
        store: mailOutboxStore,
        outcomes: OUTCOMES,
        prepare: (claims) => {
          const { baseUrl, phishBaseUrl, from, linkTtlMs } = this.options;
          return composeMessages(db, claims, {
            baseUrl,
            phishBaseUrl,
            from,
            linkTtlMs,
            now: () => this.clock.now(),
          });
        },
        handle: (claim, render) => this.handle(claim, render),
        afterBatch: (totals) => {
          if (totals.sent + totals.cancelled > 0) {
            log.info(
              { sent: totals.sent, cancelled: totals.cancelled, transport: this.options.transport.kind },
              'mail batch sent',
            );
          }
        },
      },
      {
        db,
        log,
        leaseMs,
        concurrency,
        batchSize,
        pollMs,
        clock: this.clock,
        rate: new SendRate(
          options.ratePerMinute,
          SendRate.capacityFor(options.ratePerMinute, batchSize),
          this.clock,
        ),
      },
    );
  }

  /**
   * Claims and handles one batch (waiting for the send rate first). `full` tells that the batch
   * was as large as asked, so more may be due at once.
   */
  runBatch(): Promise<MailTotals & { claimed: number; full: boolean }> {
    return this.outbox.runBatch();
  }

  /** Handles batches until nothing is due now (tests, the benchmark, a one-off run). */
  drain(): Promise<MailTotals> {
    return this.outbox.drain();
  }

  /** Runs in the background: at once again after a full batch, else after `pollMs` (or `wake()`). */
  start(): void {
    this.outbox.start();
  }

  /** Looks for due messages now (something was just queued). */
  wake(): void {
    this.outbox.wake();
  }

  /**
   * Stops claiming; sends already under way finish (waited for up to `timeoutMs`), claimed ones
   * not yet begun go back to the queue. The transport is the caller's to close afterwards.
   */
  stop(timeoutMs = 10_000): Promise<void> {
    return this.outbox.stop(timeoutMs);
  }

  /** The server failed us again: pause longer each time, up to MAX_PAUSE_MS. */
  private pauseForServer(now: number): void {
    this.serverFailures++;
    const pause = Math.min(
      MAX_PAUSE_MS,
      retryDelay(this.serverFailures, this.options.retryBaseMs, this.random),
    );
    this.outbox.pauseUntil(now + pause);
    this.options.log.warn({ pause_ms: pause }, 'mail worker: the mail server is unavailable; pausing');
  }

  /**
   * The owner's own record of a message's outcome (a simulation's step on its phishing
   * recipient), after the message's own record. A failure here is logged, never undoes the send:
   * the owner catches up later (for simulations, catchUpSimulationOutcomesOfAllAccounts).
   */
  private async recordOutcome(
    claim: Claim,
    render: Required<ComposedMail>,
    outcome: 'sent' | 'failed',
    at: number,
  ) {
    try {
      await render.recordOutcome(claim, outcome, at);
    } catch (err) {
      this.options.log.error(
        { err, message: claim.id },
        'mail worker: could not record a simulation’s delivery',
      );
    }
  }

  /**
   * Sends one claimed message and records what happened; never throws. The transport hands it
   * over through `handOff` (over SMTP just before the final "."), which records everything known
   * before the delivery; after the server's 250 only a status flip remains (recordSent). A crash
   * between the two is the one way a delivered message goes out twice; the worker that takes the
   * claim over then knows it is in doubt.
   */
  private async handle(claim: Claim, render: Composed): Promise<Outcome> {
    const { db, transport, log, maxAttempts, retryBaseMs } = this.options;
    try {
      const mail = render.compose(claim);
      if (typeof mail === 'string') {
        return (await mailOutboxStore.finish(db, claim, { status: 'cancelled', last_error: mail }))
          ? 'cancelled'
          : 'lost';
      }
      if (claim.inDoubt) {
        // At least once: a training invitation that never arrives is worse than a second copy,
        // which carries the same Message-ID (docs/internals/mail-queue.md).
        log.warn(
          { message: claim.id, attempt: claim.attempts, message_id: mail.messageId },
          'mail worker: sending again a message whose earlier attempt may have been delivered',
        );
      }
      let handedOver: Promise<boolean> | undefined;
      const handOff = () => {
        handedOver ??= recordHandOff(db, claim, this.clock.now(), {
          transport: transport.kind,
          to_address: mail.to,
          subject: mail.subject,
          body_text: mail.text,
          body_html: mail.html,
          message_id: mail.messageId,
        });
        return handedOver.then((ours) => {
          if (!ours) throw new Error('the claim ran out before the message was handed over');
        });
      };
      let failure: MailSendError | undefined;
      try {
        await transport.send(mail, handOff);
      } catch (err) {
        failure = err instanceof MailSendError ? err : classifySendError(err, mail.secrets);
      }
      const now = this.clock.now();
      if (!failure) {
        if (!handedOver) await handOff(); // a transport that never handed over: record it now
        // Nothing else between the server's acceptance and this commit.
        const recorded = await recordSent(db, claim, now);
        this.serverFailures = 0;
        if (recorded) await this.recordOutcome(claim, render, 'sent', now);
        if (!recorded) log.warn({ message: claim.id }, 'mail worker: sent a message whose claim had run out');
        return recorded ? 'sent' : 'lost';
      }
      // Our own hand-off failed (the claim ran out, the database failed): nothing was delivered.
      if (handedOver && !(await handedOver)) return 'lost';
      // Handed over, then no reply (a connection lost after the final "."): delivered or not,
      // nobody knows, so this attempt is in doubt. Not handed over: an earlier one may be.
      const ended: Claim = { ...claim, inDoubt: handedOver ? !failure.answered : claim.inDoubt };
      if (failure.serverUnavailable) this.pauseForServer(now);
      const next = afterFailure(
        { maxAttempts, delayMs: (attempts) => retryDelay(attempts, retryBaseMs, this.random) },
        claim.attempts,
        now,
        failure.permanent,
      );
      const giveUp = next.status === 'failed';
      log.warn(
        { message: claim.id, attempt: claim.attempts, permanent: failure.permanent, error: failure.message },
        giveUp ? 'mail worker: message failed' : 'mail worker: send failed, will retry',
      );
      const recorded = await mailOutboxStore.finish(db, ended, { ...next, last_error: failure.message });
      if (giveUp && recorded) await this.recordOutcome(claim, render, 'failed', now);
      if (!recorded) return 'lost';
      return giveUp ? 'failed' : 'retried';
    } catch (err) {
      // The database failed us: the claim runs out and the message is tried again then.
      log.error({ err, message: claim.id }, 'mail worker: could not record a message');
      return 'lost';
    }
  }
}

/** Sends everything due now with a worker of these options (tests, one-off runs). */
export function drainMailQueue(options: MailWorkerOptions): Promise<MailTotals> {
  return new MailWorker(options).drain();
}
