import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import {
  type Admin,
  countOtherEnabledOwners,
  deleteSessionsOfAdmin,
  findAdmin,
  updateAdmin,
} from './admins.repository.js';

const adminNotFound = () => new AppError('admin_not_found');

/**
 * Disables an administrator of this account: they cannot sign in, and every session of theirs
 * ends in the same transaction. Nobody disables themselves, and an account keeps an enabled owner.
 */
export async function disableAdmin(
  db: Db,
  accountId: number,
  /** Who disables (null: an operator at the CLI), who may not disable themselves. */
  actor: Pick<Admin, 'id'> | null,
  adminId: number,
): Promise<{ admin: Admin; sessionsEnded: number }> {
  return db.transaction().execute(async (trx) => {
    const row = await findAdmin(trx, accountId, adminId);
    if (row?.role !== 'account_admin') throw adminNotFound();
    if (adminId === actor?.id) throw new AppError('self_change_refused');
    if (row.account_role === 'owner' && (await countOtherEnabledOwners(trx, accountId, adminId)) === 0) {
      throw new AppError('last_owner');
    }
    const now = Date.now();
    const wasDisabled = row.disabled_at !== null;
    if (!wasDisabled) await updateAdmin(trx, accountId, adminId, { disabled_at: now, updated_at: now });
    const sessionsEnded = await deleteSessionsOfAdmin(trx, accountId, adminId);
    if (!wasDisabled || sessionsEnded > 0) {
      await recordAudit(trx, {
        accountId,
        action: 'admin.disabled',
        object: { type: 'admin', id: adminId, label: row.email },
        changes: {
          ...(wasDisabled ? {} : { disabled: { from: false, to: true } }),
          sessions_ended: { from: sessionsEnded, to: 0 },
        },
      });
    }
    const { password_hash: _hidden, ...admin } = row;
    return { admin: { ...admin, disabled_at: row.disabled_at ?? now }, sessionsEnded };
  });
}

/** Enables a disabled administrator of this account again: they can sign in. */
export async function enableAdmin(db: Db, accountId: number, adminId: number): Promise<Admin> {
  return db.transaction().execute(async (trx) => {
    const row = await findAdmin(trx, accountId, adminId);
    if (row?.role !== 'account_admin') throw adminNotFound();
    if (row.disabled_at !== null) {
      await updateAdmin(trx, accountId, adminId, { disabled_at: null, updated_at: Date.now() });
      await recordAudit(trx, {
        accountId,
        action: 'admin.enabled',
        object: { type: 'admin', id: adminId, label: row.email },
        changes: { disabled: { from: true, to: false } },
      });
    }
    const { password_hash: _hidden, ...admin } = row;
    return { ...admin, disabled_at: null };
  });
}
