import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { AccountRole } from '../../../core/db/schema.js';
import { AppError, roleLacksPermission } from '../../../core/errors.js';
import { ACCOUNT_ROLES, isAccountRole } from './roles.model.js';
import {
  findAccountAdminRole,
  groupScopeOf,
  groupsOfAccountByIds,
  lockOwners,
  replaceGroupScope,
  setAccountRole,
} from './roles.repository.js';

/** A role and the groups it is limited to (none: every group). */
export interface RoleAssignment {
  role: AccountRole;
  groups: number[];
}

const invalid = (details: Record<string, string[]>) => new AppError('validation_failed', { details });
const lastOwner = () => new AppError('last_owner');

/**
 * Checks a role and group scope given by an owner: a built-in role, groups of this account
 * (each once), and no scope for an owner (an owner's role covers every group).
 */
export async function checkAssignment(
  db: Db,
  accountId: number,
  input: { role: unknown; group_ids?: unknown },
): Promise<RoleAssignment> {
  if (!isAccountRole(input.role)) throw invalid({ role: [`must be one of ${ACCOUNT_ROLES.join(', ')}`] });
  const ids = Array.isArray(input.group_ids) ? (input.group_ids as number[]) : [];
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (input.role === 'owner' && unique.length > 0) {
    throw invalid({ group_ids: ['an owner’s role covers every group: leave it empty'] });
  }
  const found = new Set((await groupsOfAccountByIds(db, accountId, unique)).map((g) => g.id));
  const unknown = unique.filter((id) => !found.has(id));
  if (unknown.length > 0) throw invalid({ group_ids: [`unknown groups: ${unknown.join(', ')}`] });
  return { role: input.role, groups: unique };
}

/**
 * Sets an administrator's role and group scope (owners and operators; nobody their own), in one
 * transaction with its audit record. The account's last owner stays an owner (409 `last_owner`).
 */
export async function changeRole(
  db: Db,
  accountId: number,
  actorId: number,
  adminId: number,
  input: { role: unknown; group_ids?: unknown },
): Promise<RoleAssignment> {
  if (adminId === actorId) throw roleLacksPermission('Nobody changes their own role or groups');
  const next = await checkAssignment(db, accountId, input);
  return db.transaction().execute(async (trx) => {
    const admin = await findAccountAdminRole(trx, accountId, adminId);
    if (!admin) throw new AppError('admin_not_found');
    const before = { role: admin.account_role, groups: (await groupScopeOf(trx, accountId, adminId)) ?? [] };
    if (before.role === 'owner' && next.role !== 'owner') await keepAnOwner(trx, accountId, adminId);
    await setAccountRole(trx, accountId, adminId, next.role, Date.now());
    await replaceGroupScope(trx, accountId, adminId, next.groups);
    const changes = diffFields(before, { ...next }, { fields: ['role', 'groups'] });
    if (Object.keys(changes).length > 0) {
      await recordAudit(trx, {
        accountId,
        action: 'admin.role_changed',
        object: { type: 'admin', id: adminId, label: admin.email },
        changes,
      });
    }
    return next;
  });
}

/**
 * Refuses (409 `last_owner`) to demote or remove this owner when no other owner is left; on
 * PostgreSQL the owners stay locked until the transaction ends.
 */
export async function keepAnOwner(trx: Db, accountId: number, adminId: number): Promise<void> {
  const owners = await lockOwners(trx, accountId);
  if (owners.filter((id) => id !== adminId).length === 0) throw lastOwner();
}
