import type { Db } from '../db/database.js';
import { type AuditActor, hashAuditRow, recordAudit } from './audit.js';
import {
  auditChainIds,
  chainHasRowBefore,
  chainRetentions,
  chainRowsAfter,
  findChainHead,
  firstChainRowSince,
  GENESIS_HASH,
  lockChainHead,
  pruneChainBefore,
  settleAuditLog,
} from './audit.repository.js';

/**
 * The audit log's chains checked (`vigil audit verify`) and kept for their retention (the
 * scheduler). Each row's hash covers the previous row's hash and its own fields; each chain's
 * head holds the last `seq` and hash, and its anchor where the kept rows begin (retention moves
 * it). A changed row no longer matches its hash; a deleted one leaves a gap in `seq` (or the
 * chain ends short of its head, or begins after its anchor); an inserted one breaks the link of
 * the row after it, or lies outside the anchor and the head.
 */

/** The first row that breaks a chain, and how. */
export interface ChainBreak {
  /** The row's id (null when what is missing is the chain's end). */
  id: number | null;
  seq: number;
  kind: 'changed' | 'deleted' | 'inserted';
  reason: string;
}

export interface ChainReport {
  /** The account; 0: the service's own chain. */
  accountId: number;
  /** Rows read. */
  rows: number;
  /** Where verification started: the anchor's seq (1 until retention deleted the oldest rows). */
  anchorSeq: number;
  headSeq: number;
  ok: boolean;
  broken: ChainBreak | null;
}

const PAGE = 1000;

/** Recomputes one chain from its anchor to its head; names the first row that breaks it. */
export async function verifyChain(db: Db, accountId: number): Promise<ChainReport> {
  const head = (await findChainHead(db, accountId)) ?? {
    seq: 0,
    hash: GENESIS_HASH,
    anchorSeq: 1,
    anchorHash: GENESIS_HASH,
  };
  const report: ChainReport = {
    accountId,
    rows: 0,
    anchorSeq: head.anchorSeq,
    headSeq: head.seq,
    ok: true,
    broken: null,
  };
  const fail = (broken: ChainBreak) => Object.assign(report, { ok: false, broken });
  let expectedSeq = head.anchorSeq;
  let expectedPrev = head.anchorHash;
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = await chainRowsAfter(db, accountId, after, PAGE);
    for (const row of rows) {
      report.rows++;
      const seq = Number(row.seq);
      const id = Number(row.id);
      if (seq < expectedSeq) {
        return fail({
          id,
          seq,
          kind: 'inserted',
          reason: `row ${seq} lies before the chain's anchor (${head.anchorSeq})`,
        });
      }
      if (seq > head.seq) {
        return fail({
          id,
          seq,
          kind: 'inserted',
          reason: `row ${seq} lies after the chain's head (${head.seq})`,
        });
      }
      if (seq > expectedSeq) {
        const range =
          seq - 1 === expectedSeq ? `row ${expectedSeq} is` : `rows ${expectedSeq}–${seq - 1} are`;
        return fail({ id, seq, kind: 'deleted', reason: `${range} missing before row ${seq}` });
      }
      const { id: _id, hash, ...fields } = row;
      if (hashAuditRow(fields) !== hash) {
        return fail({
          id,
          seq,
          kind: 'changed',
          reason: `row ${seq} does not match its hash: its contents were changed`,
        });
      }
      if (row.prev_hash !== expectedPrev) {
        return fail({
          id,
          seq,
          kind: 'inserted',
          reason: `row ${seq} does not follow row ${seq - 1}: it was put in (or row ${seq - 1} changed)`,
        });
      }
      expectedPrev = hash;
      expectedSeq = seq + 1;
    }
    if (rows.length < PAGE) break;
    after = Number(rows[rows.length - 1]?.seq);
  }
  if (expectedSeq <= head.seq) {
    const range = expectedSeq === head.seq ? `row ${head.seq} is` : `rows ${expectedSeq}–${head.seq} are`;
    return fail({
      id: null,
      seq: expectedSeq,
      kind: 'deleted',
      reason: `${range} missing at the chain's end`,
    });
  }
  if (expectedPrev !== head.hash) {
    return fail({
      id: null,
      seq: head.seq,
      kind: 'changed',
      reason: `the last row's hash is not the one the chain's head recorded`,
    });
  }
  return report;
}

/** Every chain (or one account's), verified. */
export async function verifyAuditChains(db: Db, accountId?: number): Promise<ChainReport[]> {
  await settleAuditLog(db, accountId);
  const ids = accountId === undefined ? await auditChainIds(db) : [accountId];
  const reports: ChainReport[] = [];
  for (const id of ids) reports.push(await verifyChain(db, id));
  return reports;
}

/** How long the audit log is kept when the account has not said (days), and the least it may say. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 400;
export const AUDIT_RETENTION_MIN_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows one chain loses at most in one pass (the next pass goes on). */
const PRUNE_BATCH = 10_000;
const RETENTION: AuditActor = { kind: 'system', id: null, label: 'Vigil (audit log retention)' };

/**
 * Deletes each chain's rows older than its account's retention (`account_security.
 * audit_retention_days`, null: 400 days, never under 180): always the oldest rows, so the kept
 * part stays one chain, whose anchor moves to its first row in the same transaction. The
 * deletion is itself recorded in the chain (`audit_log.pruned`). Returns how many rows went.
 */
export async function pruneAuditLog(db: Db, now: number): Promise<number> {
  await settleAuditLog(db);
  let total = 0;
  for (const { accountId, days } of await chainRetentions(db)) {
    const keep = Math.max(days ?? AUDIT_RETENTION_DEFAULT_DAYS, AUDIT_RETENTION_MIN_DAYS);
    const cutoff = now - keep * DAY_MS;
    // Most passes find nothing to delete: a read, and no write lock, for each chain.
    if (!(await chainHasRowBefore(db, accountId, cutoff))) continue;
    total += await db.transaction().execute(async (trx) => {
      const head = await lockChainHead(trx, accountId);
      const anchor = await findChainHead(trx, accountId);
      const anchorSeq = anchor?.anchorSeq ?? 1;
      const first = await firstChainRowSince(trx, accountId, cutoff);
      let seq = first ? Number(first.seq) : head.seq + 1;
      let prevHash = first ? first.prev_hash : head.hash;
      if (seq <= anchorSeq) return 0;
      if (seq - anchorSeq > PRUNE_BATCH) {
        const [row] = await chainRowsAfter(trx, accountId, anchorSeq + PRUNE_BATCH - 1, 1);
        if (row && Number(row.seq) === anchorSeq + PRUNE_BATCH) {
          seq = Number(row.seq);
          prevHash = row.prev_hash;
        }
      }
      const deleted = await pruneChainBefore(trx, accountId, seq, prevHash);
      if (deleted === 0) return 0;
      await recordAudit(trx, {
        accountId,
        action: 'audit_log.pruned',
        object: { type: 'audit_log', id: accountId },
        changes: {
          rows_deleted: { from: null, to: deleted },
          retention_days: { from: null, to: keep },
          first_kept_seq: { from: anchorSeq, to: seq },
        },
        actor: RETENTION,
      });
      return deleted;
    });
  }
  return total;
}
