import { type Db, dialectOf } from '../../../core/db/database.js';
import { AddressBurstCounter } from '../simulation/simulation.classify.model.js';
import { insertEvents, type NewEvent } from '../simulation/simulation.events.repository.js';
import { applyFigureChanges, FigureChanges } from '../simulation/simulation.figures.repository.js';
import {
  type RecipientWithCampaign,
  recipientForUpdate,
  recipientsForUpdate,
} from '../simulation/simulation.recipients.repository.js';
import type { StepResult } from './tracking.steps.model.js';

/**
 * The batch writer of steps: what one transaction of steps shares (`StepBatch`) and the group
 * commit of the hits of one turn of the event loop (`StepWriter`). tracking.steps.commands.ts
 * says what each step writes; this file says when and in which transaction.
 */

/**
 * What one transaction of steps shares: the figure changes, added up and written at its end; the
 * events, inserted together (in order) at its end or before anything reads them; the recipients
 * it has already read (and locked), kept up to date as its steps move them.
 */
export class StepBatch {
  readonly figures = new FigureChanges();
  readonly recipients = new Map<number, RecipientWithCampaign>();
  #events: { accountId: number; event: NewEvent }[] = [];

  addEvent(accountId: number, event: NewEvent): void {
    this.#events.push({ accountId, event });
  }

  /** Inserts the events waiting (before a read of events in the same transaction). */
  async flushEvents(trx: Db): Promise<void> {
    if (this.#events.length === 0) return;
    const events = this.#events;
    this.#events = [];
    await insertEvents(trx, events);
  }

  /** The recipient, read under lock once per transaction. */
  async recipient(
    trx: Db,
    accountId: number,
    recipientId: number,
  ): Promise<RecipientWithCampaign | undefined> {
    const known = this.recipients.get(recipientId);
    if (known && known.account_id === accountId) return known;
    const row = await recipientForUpdate(trx, accountId, recipientId);
    if (row) this.recipients.set(recipientId, row);
    return row;
  }

  /** PostgreSQL: the batch's recipients read and locked in one statement (id order), not one round trip each. */
  async prefetch(trx: Db, keys: readonly { accountId: number; recipientId: number }[]): Promise<void> {
    if (dialectOf(trx) !== 'postgres' || keys.length < 2) return;
    const byAccount = new Map<number, Set<number>>();
    for (const { accountId, recipientId } of keys) {
      if (!byAccount.has(accountId)) byAccount.set(accountId, new Set());
      byAccount.get(accountId)?.add(recipientId);
    }
    for (const [accountId, ids] of [...byAccount].sort(([a], [b]) => a - b))
      for (const row of await recipientsForUpdate(trx, accountId, [...ids])) this.recipients.set(row.id, row);
  }

  /** Writes what is waiting: the events, then the figures (one upsert per touched row). */
  async finish(trx: Db): Promise<void> {
    await this.flushEvents(trx);
    await applyFigureChanges(trx, this.figures);
  }
}

export interface StepMachine {
  /** Counts distinct recipients per client address (per process: see docs/phishing-plan.md). */
  burst: AddressBurstCounter;
  /** Writes the hits of one turn of the event loop in one transaction (group commit), when set. */
  writer?: StepWriter;
}

export function createStepMachine(options: { batch?: Db } = {}): StepMachine {
  return {
    burst: new AddressBurstCounter(),
    ...(options.batch ? { writer: new StepWriter(options.batch) } : {}),
  };
}

export type Work = (trx: Db, batch: StepBatch) => Promise<StepResult>;

/** Runs one hit's work in a transaction of its own. */
export function alone(db: Db, work: Work): Promise<StepResult> {
  return db.transaction().execute(async (trx) => {
    const batch = new StepBatch();
    const result = await work(trx, batch);
    await batch.finish(trx);
    return result;
  });
}

/**
 * Group commit of tracking hits: the hits that arrive in one turn of the event loop are written
 * in one transaction, each as it would be alone and in their order, and each caller is answered
 * after that commit (a hit answered is written). Within the batch a recipient is read (and
 * locked) once, the events are inserted by one multi-row statement and the figures, activity and
 * delays are added up in memory and written as one upsert per touched row (`StepBatch`). A burst
 * of thousands of hits then costs a few statements and one commit per batch instead of ~10
 * statements and a commit per hit. If a batch fails, each of its hits is retried in a
 * transaction of its own, so one bad hit never loses another's.
 */
export class StepWriter {
  static readonly MAX_BATCH = 200;
  readonly #db: Db;
  #queue: {
    work: Work;
    key?: { accountId: number; recipientId: number };
    resolve: (r: StepResult) => void;
    reject: (err: unknown) => void;
  }[] = [];
  #scheduled = false;

  constructor(db: Db) {
    this.#db = db;
  }

  submit(work: Work, key?: { accountId: number; recipientId: number }): Promise<StepResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ work, ...(key ? { key } : {}), resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue.splice(0, StepWriter.MAX_BATCH);
    try {
      if (batch.length === 1) {
        const [one] = batch;
        await alone(this.#db, one!.work).then(one!.resolve, one!.reject);
      } else if (batch.length > 1) {
        let results: StepResult[] = [];
        try {
          results = await this.#db.transaction().execute(async (trx) => {
            const shared = new StepBatch();
            await shared.prefetch(
              trx,
              batch.flatMap((item) => (item.key ? [item.key] : [])),
            );
            const out: StepResult[] = [];
            for (const item of batch) out.push(await item.work(trx, shared));
            await shared.finish(trx);
            return out;
          });
          for (const [i, item] of batch.entries()) item.resolve(results[i] as StepResult);
        } catch {
          for (const item of batch) await alone(this.#db, item.work).then(item.resolve, item.reject);
        }
      }
    } finally {
      if (this.#queue.length > 0) setImmediate(() => void this.#flush());
      else this.#scheduled = false;
    }
  }
}
