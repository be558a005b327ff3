import { recordAudit } from '../../core/audit/audit.js';
import type { Db } from '../../core/db/database.js';
import { type AppError, FieldErrorCollector } from '../../core/errors.js';
import type { CampaignLifecycle, CampaignMove } from './campaigns.lifecycle.model.js';

/** The columns a move sets: the status, its stamps, the time of the change. */
export interface MoveValues<S extends string> {
  status: S;
  updated_at: number;
  completed_at?: number;
  archived_at?: number;
}

/** A kind's campaign rows, as the moves read and write them. */
export interface CampaignRows<S extends string, R extends { status: S }> {
  lifecycle: CampaignLifecycle<S>;
  /** The account's campaign, locked for the rest of the transaction (undefined: not the account's). */
  lock(trx: Db, accountId: number, campaignId: number): Promise<R | undefined>;
  /** Sets these columns if the campaign is still in one of `from` (a race lost → undefined). */
  update(
    trx: Db,
    accountId: number,
    campaignId: number,
    values: MoveValues<S>,
    from: S[],
  ): Promise<R | undefined>;
  /** Deletes the account's campaign row (its link rows go by cascade). */
  remove(trx: Db, accountId: number, campaignId: number): Promise<void>;
  /** The kind's 404. */
  notFound(): AppError;
  /** What the audit log calls a campaign of this kind (`campaign`, `phishing_campaign`). */
  auditType: string;
}

/** The audit log's verb of each move. */
const MOVED: Record<CampaignMove, string> = {
  schedule: 'scheduled',
  unschedule: 'unscheduled',
  launch: 'launched',
  stop: 'stopped',
  archive: 'archived',
};

/** A campaign's name, for the audit log (every kind's row has one). */
const labelOf = (row: object) => ('name' in row && typeof row.name === 'string' ? row.name : null);

export interface MoveCampaignProps<S extends string, R extends { status: S }> {
  accountId: number;
  campaignId: number;
  move: CampaignMove;
  now?: number;
  /** Field errors that refuse the move, read on the locked campaign (a schedule needs its settings). */
  check?: (trx: Db, row: R, errors: FieldErrorCollector, now: number) => Promise<void>;
  /** What the move does besides the status, inside its transaction (webhooks, cancelled mail). */
  moved?: (trx: Db, to: S, now: number) => Promise<void>;
}

/**
 * Moves a campaign as the lifecycle says (from which statuses, to which) with a guarded update:
 * two administrators acting at once, one wins and the other gets the 409. `check` runs first on
 * the locked campaign; `moved` runs after, in the same transaction.
 */
export async function moveCampaign<S extends string, R extends { status: S }>(
  db: Db,
  rows: CampaignRows<S, R>,
  props: MoveCampaignProps<S, R>,
): Promise<void> {
  const { accountId, campaignId, move } = props;
  const { from, to } = rows.lifecycle.move(move);
  await db.transaction().execute(async (trx) => {
    const row = await rows.lock(trx, accountId, campaignId);
    if (!row) throw rows.notFound();
    if (!from.includes(row.status)) throw rows.lifecycle.refused(move, row.status);
    const now = props.now ?? Date.now();
    if (props.check) {
      const errors = new FieldErrorCollector();
      await props.check(trx, row, errors, now);
      errors.throwIfAny();
    }
    const values = { status: to, ...rows.lifecycle.stamp(to, now), updated_at: now };
    const updated = await rows.update(trx, accountId, campaignId, values, from);
    if (!updated) throw rows.lifecycle.refused(move, row.status);
    await props.moved?.(trx, to, now);
    await recordAudit(trx, {
      accountId,
      action: `${rows.auditType}.${MOVED[move]}`,
      object: { type: rows.auditType, id: campaignId, label: labelOf(row) },
      changes: { status: { from: row.status, to } },
    });
  });
}

/** Deletes a campaign its status lets go (a draft: nobody was ever enrolled in or sent anything). */
export async function deleteCampaignOfKind<S extends string, R extends { status: S }>(
  db: Db,
  rows: CampaignRows<S, R>,
  accountId: number,
  campaignId: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await rows.lock(trx, accountId, campaignId);
    if (!row) throw rows.notFound();
    if (!rows.lifecycle.allows(row.status, 'delete')) throw rows.lifecycle.refused('delete', row.status);
    await rows.remove(trx, accountId, campaignId);
    await recordAudit(trx, {
      accountId,
      action: `${rows.auditType}.deleted`,
      object: { type: rows.auditType, id: campaignId, label: labelOf(row) },
    });
  });
}
