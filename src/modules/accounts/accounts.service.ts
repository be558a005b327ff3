import { type ListPage, type ListWindow, readList } from '../../admin/list.js';
import type { Db } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';
import { FieldErrorCollector, notFound } from '../../errors.js';
import { checkName } from '../../fields.js';
import { parseId } from '../../ids.js';
import {
  type AccountRow,
  accountCounts,
  countAccounts,
  findAccount,
  insertAccount,
  listAccounts,
  searchAccounts,
  updateAccountName,
} from './accounts.repository.js';

export type Account = AccountRow;

function checkAccountName(value: unknown): string {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', value);
  errors.throwIfAny();
  return name;
}

/** Creates a customer account. */
export async function createAccount(db: Db, input: { name: unknown }): Promise<Account> {
  return insertAccount(db, checkAccountName(input.name), Date.now());
}

export async function getAccount(db: Db, accountId: number | string): Promise<Account> {
  const id = parseId(accountId);
  const account = id === null ? undefined : await findAccount(db, id);
  if (!account) throw notFound('Account not found');
  return account;
}

export const allAccounts = listAccounts;

/** Accounts whose name contains `search`, by name; `count` is the total that match. */
export function findAccounts(
  db: Db,
  search: string | undefined,
  window: ListWindow,
): Promise<ListPage<Account>> {
  const pattern = containsPattern(search);
  return readList(
    window,
    () => countAccounts(db, pattern),
    (limit, offset) => searchAccounts(db, pattern, limit, offset),
  );
}

export async function renameAccount(db: Db, accountId: number, input: { name: unknown }): Promise<Account> {
  const name = checkAccountName(input.name);
  const account = await updateAccountName(db, accountId, name, Date.now());
  if (!account) throw notFound('Account not found');
  return account;
}

/** Counts shown on an account's overview page. */
export async function accountOverview(db: Db, accountId: number) {
  await getAccount(db, accountId);
  return accountCounts(db, accountId, Date.now());
}
