import type { Db } from '../../db/database.js';
import { FieldErrorCollector, notFound } from '../../errors.js';
import { checkName } from '../../fields.js';
import { type AccountRow, findAccount, insertAccount, listAccounts } from './accounts.repository.js';

export type Account = AccountRow;

/** Creates a customer account. */
export async function createAccount(db: Db, input: { name: string }): Promise<Account> {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', input.name);
  errors.throwIfAny();
  return insertAccount(db, name, Date.now());
}

export async function getAccount(db: Db, accountId: number): Promise<Account> {
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('Account not found');
  return account;
}

export const allAccounts = listAccounts;
