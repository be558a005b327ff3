import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { type Composer, mailComposer } from '../modules/mail/mail.compose.js';
import {
  type Claim,
  claimDueMessagesOfAllAccounts,
  finishClaim,
  recordHandOff,
  recordSent,
  releaseClaims,
} from '../modules/mail/mail.repository.js';
import { classifySendError, MailSendError, type MailTransport } from '../modules/mail/mail.transport.js';
import { recordSimulationOutcome } from '../modules/phishing/phishing.delivery.js';
import { type Clock, systemClock } from './clock.js';
import { retryDelay, SendRate } from './send-rate.js';
import { eachConcurrently, IdleWait } from './worker-pacing.js';

/** What the workers log through (pino's logger fits). */
export interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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

type Outcome = keyof MailTotals | 'lost';

/** The longest the worker waits before trying an unavailable mail server again. */
const MAX_PAUSE_MS = 5 * 60_000;

/**
 * The mail worker: claims due messages from the queue in small batches, renders each from
 * current data, records what it is about to send, sends with at most `concurrency` in flight
 * and `ratePerMinute` a minute, and records the outcome right after the server's answer.
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
  private readonly rate: SendRate;
  private readonly abort = new AbortController();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly idle = new IdleWait();
  /** No claims before this time: the mail server was unavailable. */
  private pausedUntil = 0;
  private serverFailures = 0;

  constructor(options: MailWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    const batchSize = options.batchSize ?? Math.min(50, Math.max(10, options.concurrency * 4));
    this.options = {
      pollMs: 1000,
      ...options,
      phishBaseUrl: options.phishBaseUrl ?? options.baseUrl,
      batchSize,
    };
    this.rate = new SendRate(
      options.ratePerMinute,
      SendRate.capacityFor(options.ratePerMinute, batchSize),
      this.clock,
    );
  }

  /**
   * Claims and handles one batch (waiting for the send rate first). `full` tells that the batch
   * was as large as asked, so more may be due at once.
   */
  async runBatch(): Promise<MailTotals & { claimed: number; full: boolean }> {
    const totals: MailTotals = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
    await this.rate.ready(this.abort.signal);
    if (this.stopping || this.paused()) return { ...totals, claimed: 0, full: false };
    const want = Math.min(this.options.batchSize, this.rate.available());
    const now = this.clock.now();
    // Cross-account by design: one queue serves every account (each claim carries its account).
    const claims = await claimDueMessagesOfAllAccounts(this.options.db, {
      now,
      limit: want,
      leaseUntil: now + this.options.leaseMs,
    });
    this.rate.take(claims.length);
    if (claims.length === 0) return { ...totals, claimed: 0, full: false };

    const { baseUrl, phishBaseUrl, from, linkTtlMs } = this.options;
    const render = await mailComposer(this.options.db, claims, {
      baseUrl,
      phishBaseUrl,
      from,
      linkTtlMs,
      now: () => this.clock.now(),
    });
    // A send may take up to half the lease (the transport's timeout), so one begun in the first
    // half ends before the claim does; a slow batch hands the rest back rather than risk a
    // second worker taking over a message this one is still sending.
    const startBy = now + this.options.leaseMs / 2;
    const unstarted: Claim[] = [];
    await eachConcurrently(claims, this.options.concurrency, async (claim) => {
      if (this.stopping || this.paused() || this.clock.now() > startBy) {
        unstarted.push(claim);
        return;
      }
      const outcome = await this.handle(claim, render);
      if (outcome !== 'lost') totals[outcome]++;
    });
    if (unstarted.length > 0) await releaseClaims(this.options.db, unstarted, this.clock.now());
    if (totals.sent + totals.cancelled > 0) {
      this.options.log.info(
        { sent: totals.sent, cancelled: totals.cancelled, transport: this.options.transport.kind },
        'mail batch sent',
      );
    }
    return { ...totals, claimed: claims.length, full: claims.length === want };
  }

  /** Handles batches until nothing is due now (tests, the benchmark, a one-off run). */
  async drain(): Promise<MailTotals> {
    const totals: MailTotals = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
    for (;;) {
      const batch = await this.runBatch();
      for (const key of Object.keys(totals) as (keyof MailTotals)[]) totals[key] += batch[key];
      if (batch.claimed === 0) return totals;
    }
  }

  /** Runs in the background: at once again after a full batch, else after `pollMs` (or `wake()`). */
  start(): void {
    this.loop ??= (async () => {
      while (!this.stopping) {
        let full = false;
        try {
          full = (await this.runBatch()).full;
        } catch (err) {
          this.options.log.error({ err }, 'mail worker: could not process the queue');
        }
        const pause = this.pausedUntil - this.clock.now();
        if (!full && !this.stopping) await this.idle.wait(Math.max(this.options.pollMs, pause));
      }
    })();
  }

  /** Looks for due messages now (something was just queued). */
  wake(): void {
    this.idle.wake();
  }

  /**
   * Stops claiming; sends already under way finish (waited for up to `timeoutMs`), claimed ones
   * not yet begun go back to the queue. The transport is the caller's to close afterwards.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.wake();
    if (!this.loop) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.loop,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.options.log.warn({ timeout_ms: timeoutMs }, 'mail worker: sends still in flight at shutdown');
          resolve();
        }, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  private paused(): boolean {
    return this.clock.now() < this.pausedUntil;
  }

  /** The server failed us again: pause longer each time, up to MAX_PAUSE_MS. */
  private pauseForServer(now: number): void {
    this.serverFailures++;
    const pause = Math.min(
      MAX_PAUSE_MS,
      retryDelay(this.serverFailures, this.options.retryBaseMs, this.random),
    );
    this.pausedUntil = Math.max(this.pausedUntil, now + pause);
    this.options.log.warn({ pause_ms: pause }, 'mail worker: the mail server is unavailable; pausing');
  }

  /**
   * A simulation's outcome on its phishing recipient (status, event, figures), after the
   * message's own record. A failure here is logged, never undoes the send: the scheduler's
   * catch-up records it later (catchUpSimulationOutcomesOfAllAccounts).
   */
  private async recordSimulation(claim: Claim, render: Composer, outcome: 'sent' | 'failed', at: number) {
    const recipientId = render.simulationOf?.(claim.id);
    if (recipientId === undefined) return;
    try {
      await recordSimulationOutcome(this.options.db, claim.accountId, recipientId, outcome, at);
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
  private async handle(claim: Claim, render: Composer): Promise<Outcome> {
    const { db, transport, log, maxAttempts, retryBaseMs } = this.options;
    try {
      const mail = render(claim);
      if (typeof mail === 'string') {
        return (await finishClaim(db, claim, { status: 'cancelled', last_error: mail }))
          ? 'cancelled'
          : 'lost';
      }
      if (claim.inDoubt) {
        // At least once: a training invitation that never arrives is worse than a second copy,
        // which carries the same Message-ID (DEVELOPERS.md, "The mail queue").
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
        if (recorded) await this.recordSimulation(claim, render, 'sent', now);
        if (!recorded) log.warn({ message: claim.id }, 'mail worker: sent a message whose claim had run out');
        return recorded ? 'sent' : 'lost';
      }
      // Our own hand-off failed (the claim ran out, the database failed): nothing was delivered.
      if (handedOver && !(await handedOver)) return 'lost';
      // Handed over, then no reply (a connection lost after the final "."): delivered or not,
      // nobody knows, so this attempt is in doubt. Not handed over: an earlier one may be.
      const ended: Claim = { ...claim, inDoubt: handedOver ? !failure.answered : claim.inDoubt };
      if (failure.serverUnavailable) this.pauseForServer(now);
      const giveUp = failure.permanent || claim.attempts >= maxAttempts;
      log.warn(
        { message: claim.id, attempt: claim.attempts, permanent: failure.permanent, error: failure.message },
        giveUp ? 'mail worker: message failed' : 'mail worker: send failed, will retry',
      );
      if (giveUp) {
        const failed = await finishClaim(db, ended, { status: 'failed', last_error: failure.message });
        if (failed) await this.recordSimulation(claim, render, 'failed', now);
        return failed ? 'failed' : 'lost';
      }
      const retried = await finishClaim(db, ended, {
        status: 'queued',
        next_attempt_at: now + retryDelay(claim.attempts, retryBaseMs, this.random),
        last_error: failure.message,
      });
      return retried ? 'retried' : 'lost';
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
