import type { Db } from '../db/database.js';
import { type Clock, systemClock } from './clock.js';
import { eachConcurrently, IdleWait } from './pacing.js';
import type { SendRate } from './send-rate.js';

/**
 * The outbox: one durable-queue machine for every kind of delivery (mail, webhooks). Items wait
 * in their kind's table; workers claim due ones in small batches with a lease, send each, and
 * record the outcome, fenced by the claim; failures come back after a back-off (backoff.ts); a
 * worker that dies mid-send leaves its claims to run out, and another takes them over. Several
 * workers (processes, machines) share one queue: claims are disjoint.
 *
 * The SQL of each table stays in its owner's repository, which implements OutboxStore; the kind
 * (workers/mail-worker.ts, workers/webhook-worker.ts) says what a batch is sent from and how one
 * item is sent and recorded.
 */

/** A worker's hold on one item: its attempt number fences every later write. */
export interface OutboxClaim {
  id: number;
  accountId: number;
  attempts: number;
}

/**
 * The SQL of one queue table. Cross-account by design: one queue serves every account; a claim
 * carries its item's account, and every write on it is scoped by that account too.
 */
export interface OutboxStore<C extends OutboxClaim, V> {
  /**
   * Claims up to `limit` due items: queued ones whose time has come, and `sending` ones whose
   * claim ran out (a worker that died mid-send: taken over). They become `sending`, held until
   * `leaseUntil`, one attempt more. On PostgreSQL the rows are picked `for update skip locked`,
   * so concurrent workers take disjoint sets without waiting; SQLite runs one writer at a time,
   * so each UPDATE is atomic by itself.
   */
  claimDue(db: Db, props: { now: number; limit: number; leaseUntil: number }): Promise<C[]>;
  /**
   * Ends a claim with these values, only while it is still ours (`sending` at our attempt): a
   * worker whose claim ran out must not overwrite what the worker that took over recorded.
   * Returns false when it was not ours any more.
   */
  finish(db: Db, claim: C, values: V): Promise<boolean>;
  /** Hands claimed items never attempted back to the queue (a worker stopping, a slow batch). */
  release(db: Db, claims: C[], now: number): Promise<void>;
}

/** What the workers log through (pino's logger fits). */
export interface OutboxLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What one item's attempt came to; `lost` when the claim was no longer ours to record. */
export type OutboxOutcome<O extends string> = O | 'lost';

/** One kind of delivery: its table's store, what a batch is sent from, how one item is sent. */
export interface OutboxKind<C extends OutboxClaim, V, B, O extends string> {
  /** The worker's name in log lines ("mail worker"). */
  name: string;
  store: OutboxStore<C, V>;
  /** The outcomes counted per batch. */
  outcomes: readonly O[];
  /** Reads, at send time, what these claims are sent from. */
  prepare(claims: C[]): Promise<B>;
  /** Sends one claimed item and records what happened (through `store.finish`); never throws. */
  handle(claim: C, batch: B): Promise<OutboxOutcome<O>>;
  /** After a batch (a log line). */
  afterBatch?(totals: Record<O, number>): void;
}

export interface OutboxWorkerOptions {
  db: Db;
  log: OutboxLog;
  clock?: Clock;
  /** How long a claim holds; a send begins only in its first half. */
  leaseMs: number;
  /** Sends at once, at most. */
  concurrency: number;
  /** Most items claimed at once. */
  batchSize: number;
  /** How often an idle worker looks for due items (default 1 s). */
  pollMs?: number;
  /** A send rate to keep: claims wait for it and take no more than it allows. */
  rate?: SendRate;
}

export type OutboxBatch<O extends string> = Record<O, number> & { claimed: number; full: boolean };

/**
 * The outbox's worker loop for one kind: claims due items in small batches (waiting for the send
 * rate first, if any), sends at most `concurrency` at once, hands back what it could not begin
 * within the first half of the lease, and runs again at once after a full batch, else after
 * `pollMs` (or `wake()`), or once a pause (`pauseUntil`) ends.
 */
export class OutboxWorker<C extends OutboxClaim, V, B, O extends string> {
  readonly clock: Clock;
  private readonly pollMs: number;
  private readonly abort = new AbortController();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly idle = new IdleWait();
  /** No claims before this time (the kind paused: its server was unavailable). */
  private pausedUntil = 0;

  constructor(
    private readonly kind: OutboxKind<C, V, B, O>,
    private readonly options: OutboxWorkerOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.pollMs = options.pollMs ?? 1000;
  }

  private emptyTotals(): Record<O, number> {
    return Object.fromEntries(this.kind.outcomes.map((o) => [o, 0])) as Record<O, number>;
  }

  /**
   * Claims and handles one batch. `full` tells that the batch was as large as asked, so more may
   * be due at once.
   */
  async runBatch(): Promise<OutboxBatch<O>> {
    const totals = this.emptyTotals();
    const { db, rate, leaseMs, concurrency, batchSize } = this.options;
    const { store } = this.kind;
    if (rate) await rate.ready(this.abort.signal);
    if (this.stopping || this.paused()) return { ...totals, claimed: 0, full: false };
    const want = rate ? Math.min(batchSize, rate.available()) : batchSize;
    const now = this.clock.now();
    // Cross-account by design: one queue serves every account (each claim carries its account).
    const claims = await store.claimDue(db, { now, limit: want, leaseUntil: now + leaseMs });
    rate?.take(claims.length);
    if (claims.length === 0) return { ...totals, claimed: 0, full: false };
    const batch = await this.kind.prepare(claims);
    // A send may take up to half the lease (the transport's timeout), so one begun in the first
    // half ends before the claim does; a slow batch hands the rest back rather than risk a
    // second worker taking over an item this one is still sending.
    const startBy = now + leaseMs / 2;
    const unstarted: C[] = [];
    await eachConcurrently(claims, concurrency, async (claim) => {
      if (this.stopping || this.paused() || this.clock.now() > startBy) {
        unstarted.push(claim);
        return;
      }
      const outcome = await this.kind.handle(claim, batch);
      if (outcome !== 'lost') totals[outcome]++;
    });
    if (unstarted.length > 0) await store.release(db, unstarted, this.clock.now());
    this.kind.afterBatch?.(totals);
    return { ...totals, claimed: claims.length, full: claims.length === want };
  }

  /** Handles batches until nothing is due now (tests, the benchmark, a one-off run). */
  async drain(): Promise<Record<O, number>> {
    const totals = this.emptyTotals();
    for (;;) {
      const batch = await this.runBatch();
      for (const key of this.kind.outcomes) totals[key] += batch[key];
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
          this.options.log.error({ err }, `${this.kind.name}: could not process the queue`);
        }
        const pause = this.pausedUntil - this.clock.now();
        if (!full && !this.stopping) await this.idle.wait(Math.max(this.pollMs, pause));
      }
    })();
  }

  /** Looks for due items now (something was just queued). */
  wake(): void {
    this.idle.wake();
  }

  /**
   * Stops claiming; sends already under way finish (waited for up to `timeoutMs`, or until they
   * end without one), claimed ones not yet begun go back to the queue.
   */
  async stop(timeoutMs?: number): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.wake();
    if (!this.loop) return;
    if (timeoutMs === undefined) {
      await this.loop;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.loop,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.options.log.warn(
            { timeout_ms: timeoutMs },
            `${this.kind.name}: sends still in flight at shutdown`,
          );
          resolve();
        }, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** True while paused. */
  paused(): boolean {
    return this.clock.now() < this.pausedUntil;
  }

  /** Claims nothing before `until` (the kind's server is unavailable); one batch's sends stop starting. */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }
}
