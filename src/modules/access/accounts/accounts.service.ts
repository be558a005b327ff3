import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { containsPattern } from '../../../core/db/like.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { checkName } from '../../../core/fields.js';
import type { AdminIdentity } from '../../../core/http/admin-request.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import {
  type AccountRow,
  countAllAccounts,
  findAccount,
  insertAccount,
  searchAllAccounts,
  updateAccountName,
} from './accounts.repository.js';

export type Account = AccountRow;

export const accountNotFound = () => new AppError('account_not_found');

function checkAccountName(value: unknown): string {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', value);
  errors.throwIfAny();
  return name;
}

/** Creates a customer account. */
export async function createAccount(db: Db, input: { name: unknown }): Promise<Account> {
  const name = checkAccountName(input.name);
  return db.transaction().execute(async (trx) => {
    const account = await insertAccount(trx, name, Date.now());
    // The service's own chain: the account's begins with what is done inside it.
    await recordAudit(trx, {
      accountId: null,
      action: 'account.created',
      object: { type: 'account', id: account.id, label: account.name },
      changes: { name: { from: null, to: account.name } },
    });
    return account;
  });
}

export async function getAccount(db: Db, accountId: number): Promise<Account> {
  const account = await findAccount(db, accountId);
  if (!account) throw accountNotFound();
  return account;
}

/** Operator-wide: one page of every account of the service whose name contains `search`, by name. */
export async function listAllAccounts(
  db: Db,
  search: string | undefined,
  window: ListWindow,
): Promise<ListPage<Account>> {
  const pattern = containsPattern(search);
  if (pattern === null) return { count: 0, items: [] };
  return readList(
    window,
    () => countAllAccounts(db, pattern),
    (limit, offset) => searchAllAccounts(db, pattern, limit, offset),
  );
}

/**
 * The accounts this administrator may open whose name contains `search`, by name: every
 * account for an operator, their own for an account administrator.
 */
export async function findAccounts(
  db: Db,
  viewer: Pick<AdminIdentity, 'account_id'>,
  search: string | undefined,
  window: ListWindow,
): Promise<ListPage<Account>> {
  // An account administrator belongs to an account; an operator to none, and sees them all.
  if (viewer.account_id !== null) return { count: 1, items: [await getAccount(db, viewer.account_id)] };
  return listAllAccounts(db, search, window);
}

export async function renameAccount(db: Db, accountId: number, input: { name: unknown }): Promise<Account> {
  const name = checkAccountName(input.name);
  return db.transaction().execute(async (trx) => {
    const before = await findAccount(trx, accountId);
    const account = await updateAccountName(trx, accountId, name, Date.now());
    if (!before || !account) throw accountNotFound();
    await recordAudit(trx, {
      accountId,
      action: 'account.renamed',
      object: { type: 'account', id: accountId, label: account.name },
      changes: diffFields({ name: before.name }, { name: account.name }),
    });
    return account;
  });
}
