import type { Insertable } from 'kysely';
import { type AuditActor, diffFields, recordAudit } from '../../../core/audit/audit.js';
import {
  decoyHash,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
} from '../../../core/auth/password.js';
import type { Db } from '../../../core/db/database.js';
import { isUniqueViolation } from '../../../core/db/errors.js';
import type { AccountRole, AdminRole, AdminUsersTable } from '../../../core/db/schema.js';
import {
  AppError,
  accountRequired,
  FieldErrorCollector as Collector,
  emailTaken,
  type FieldErrorCollector,
  forbidden,
  invalidCredentials,
} from '../../../core/errors.js';
import { checkEmail, checkOptionalName, normalizeEmail } from '../../../core/fields.js';
import { getAccount } from '../accounts/accounts.service.js';
import { groupScopesOfAccount, type ScopeGroup } from '../roles/roles.repository.js';
import { keepAnOwner } from '../roles/roles.service.js';
import {
  type Admin,
  type AdminAccountId,
  type AdminRow,
  deleteAccountAdmin,
  findAdmin,
  findAdminByEmail,
  insertAdmin,
  listAccountAdmins,
  operatorExists,
  updateAdmin,
} from './admins.repository.js';

/** An administrator of the web interface, without the password hash. */
export type { Admin, AdminAccountId };

/** `email_taken`, worded for administrators. */
export const ADMIN_EMAIL_TAKEN = 'An administrator with this email already exists';
const adminNotFound = () => new AppError('admin_not_found');

function toAdmin(row: AdminRow): Admin {
  const { password_hash: _hidden, ...admin } = row;
  return admin;
}

/** Records what is wrong with a password (length in code points, as every text field). */
export function checkPassword(errors: FieldErrorCollector, field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    errors.add(
      field,
      value === undefined || value === null || value === '' ? 'is required' : 'must be a string',
    );
    return '';
  }
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH) errors.add(field, `must be at least ${PASSWORD_MIN_LENGTH} characters`);
  else if (length > PASSWORD_MAX_LENGTH)
    errors.add(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
  else if (!value.isWellFormed()) errors.add(field, 'must be valid Unicode text');
  return value;
}

export interface CreateAdminProps {
  /** The account of an account administrator; null for an operator. */
  accountId: AdminAccountId;
  role: AdminRole;
  /** An account administrator's role (owner when not given); operators have none. */
  accountRole?: AccountRole;
  email: unknown;
  password: unknown;
  name?: unknown;
}

/** An administrator's validated fields, password already hashed: ready to insert into their account. */
export interface PreparedAdmin {
  accountId: AdminAccountId;
  fields: Omit<Insertable<AdminUsersTable>, 'account_id' | 'created_at' | 'updated_at'>;
}

/** Checks the fields and hashes the password (slow by design: do it outside transactions). */
export async function prepareAdmin(db: Db, props: CreateAdminProps): Promise<PreparedAdmin> {
  const errors = new Collector();
  const email = checkEmail(errors, 'email', props.email);
  const password = checkPassword(errors, 'password', props.password);
  const name = checkOptionalName(errors, 'name', props.name);
  errors.throwIfAny();
  const accountId = props.role === 'operator' ? null : props.accountId;
  if (props.role === 'account_admin') {
    if (accountId === null) throw accountRequired();
    await getAccount(db, accountId);
  }
  return {
    accountId,
    fields: {
      email,
      email_normalized: normalizeEmail(email),
      name,
      password_hash: await hashPassword(password),
      role: props.role,
      account_role: props.role === 'operator' ? null : (props.accountRole ?? 'owner'),
    },
  };
}

/** Stores a prepared administrator; the unique index decides a taken address (409). */
export async function insertPreparedAdmin(
  db: Db,
  prepared: PreparedAdmin,
  /** Who creates them, when not the request's actor; 'self': they do (accepting a link). */
  actor?: AuditActor | 'self',
): Promise<Admin> {
  const now = Date.now();
  try {
    const insert = async (trx: Db) => {
      const admin = toAdmin(
        await insertAdmin(trx, prepared.accountId, { ...prepared.fields, created_at: now, updated_at: now }),
      );
      await recordAudit(trx, {
        accountId: admin.account_id,
        action: 'admin.created',
        object: { type: 'admin', id: admin.id, label: admin.email },
        changes: diffFields(
          null,
          { email: admin.email, name: admin.name, role: admin.role, password: 1 },
          {
            secrets: ['password'],
          },
        ),
        ...(actor ? { actor: actor === 'self' ? actorOfAdmin(admin) : actor } : {}),
      });
      return admin;
    };
    // Inside the caller's transaction when there is one (accepting an invitation claims it first).
    return await (db.isTransaction ? insert(db) : db.transaction().execute(insert));
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(ADMIN_EMAIL_TAKEN);
    throw err;
  }
}

/** The audit log's name for an administrator acting themselves (signing in, accepting a link). */
export function actorOfAdmin(admin: Pick<Admin, 'id' | 'email' | 'role'>): AuditActor {
  return { kind: admin.role === 'operator' ? 'operator' : 'admin', id: admin.id, label: admin.email };
}

/** Creates an administrator; one address signs in to one administrator across the service. */
export async function createAdmin(db: Db, props: CreateAdminProps): Promise<Admin> {
  return insertPreparedAdmin(db, await prepareAdmin(db, props));
}

/** Whether an administrator signs in with this address (of any account: addresses are unique across the service). */
export async function adminEmailTaken(db: Db, email: string): Promise<boolean> {
  return (await findAdminByEmail(db, normalizeEmail(email))) !== undefined;
}

/** The administrator these credentials belong to; an unknown address costs as long as a wrong password. */
export async function checkCredentials(db: Db, email: unknown, password: unknown): Promise<Admin> {
  if (
    typeof email !== 'string' ||
    typeof password !== 'string' ||
    password.length > 4 * PASSWORD_MAX_LENGTH
  ) {
    throw invalidCredentials();
  }
  const row = await findAdminByEmail(db, normalizeEmail(email));
  const ok = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
  if (!row || !ok) {
    await recordSignInFailure(db, row?.account_id ?? null, email);
    throw invalidCredentials();
  }
  if (row.disabled_at !== null) throw new AppError('admin_disabled');
  const now = Date.now();
  await updateAdmin(db, row.account_id, row.id, { last_sign_in_at: now });
  return toAdmin({ ...row, last_sign_in_at: now });
}

/** A refused sign-in, in the chain of the account the address belongs to (the service's when none): the address tried, never the password. */
async function recordSignInFailure(db: Db, accountId: number | null, email: string): Promise<void> {
  const tried = [...email].slice(0, 320).join('');
  await recordAudit(db, {
    accountId,
    action: 'admin.sign_in_failed',
    object: { type: 'admin', label: tried },
    actor: { kind: 'anonymous', id: null, label: tried },
  });
}

export const hasOperator = operatorExists;

/** The account administrator who signs in with this address (404 `admin_not_found` otherwise, operators included). */
export async function accountAdminByEmail(db: Db, email: string): Promise<Admin> {
  const row = await findAdminByEmail(db, normalizeEmail(email));
  if (row?.role !== 'account_admin') throw adminNotFound();
  return toAdmin(row);
}

/** Whoever signs in with this address, operator or account administrator (404 `admin_not_found` otherwise): an operator-wide look-up, for the CLI. */
export async function adminByEmailOperatorWide(db: Db, email: string): Promise<Admin> {
  const row = await findAdminByEmail(db, normalizeEmail(email));
  if (!row) throw adminNotFound();
  return toAdmin(row);
}

/** An administrator of this account (404 `admin_not_found` for anyone else, operators included). */
export async function getAccountAdmin(db: Db, accountId: number, adminId: number): Promise<Admin> {
  const row = await findAdmin(db, accountId, adminId);
  if (row?.role !== 'account_admin') throw adminNotFound();
  return toAdmin(row);
}

export async function adminsOfAccount(db: Db, accountId: number): Promise<Admin[]> {
  await getAccount(db, accountId);
  return (await listAccountAdmins(db, accountId)).map(toAdmin);
}

/** True when this administrator may work inside this account. */
export function canActInAccount(admin: Pick<Admin, 'role' | 'account_id'>, accountId: number): boolean {
  return admin.role === 'operator' || admin.account_id === accountId;
}

/** Sets a new password once the current one is confirmed (400 on either field otherwise). */
export async function changePassword(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
  input: { current_password: unknown; new_password: unknown },
): Promise<void> {
  const errors = new Collector();
  const next = checkPassword(errors, 'new_password', input.new_password);
  const row = await findAdmin(db, accountId, adminId);
  if (!row) throw adminNotFound();
  const current = typeof input.current_password === 'string' ? input.current_password : '';
  if (
    current === '' ||
    current.length > 4 * PASSWORD_MAX_LENGTH ||
    !(await verifyPassword(current, row.password_hash))
  ) {
    errors.add('current_password', 'is not your current password');
  }
  errors.throwIfAny();
  const passwordHash = await hashPassword(next);
  await db.transaction().execute(async (trx) => {
    await updateAdmin(trx, accountId, adminId, { password_hash: passwordHash, updated_at: Date.now() });
    await recordAudit(trx, {
      accountId,
      action: 'admin.password_changed',
      object: { type: 'admin', id: adminId, label: row.email },
      changes: { password: { changed: true } },
    });
  });
}

/** Removes an account administrator of this account; operators are not removed this way. */
export async function removeAccountAdmin(db: Db, accountId: number, adminId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findAdmin(trx, accountId, adminId);
    if (row?.role !== 'account_admin') throw adminNotFound();
    // The account's last owner stays (409 last_owner).
    if (row.account_role === 'owner') await keepAnOwner(trx, accountId, adminId);
    if (!(await deleteAccountAdmin(trx, accountId, adminId))) throw adminNotFound();
    await recordAudit(trx, {
      accountId,
      action: 'admin.removed',
      object: { type: 'admin', id: adminId, label: row.email },
      changes: { role: { from: row.account_role, to: null } },
    });
  });
}

/** An account's administrators with the groups each one's role is limited to (null: every group). */
export async function adminsWithScopes(db: Db, accountId: number): Promise<[Admin, ScopeGroup[] | null][]> {
  const admins = await adminsOfAccount(db, accountId);
  const scopes = await groupScopesOfAccount(db, accountId);
  return admins.map((admin) => [admin, scopes.get(admin.id) ?? null]);
}

/**
 * Grants or withdraws the triage permission (reading reported mail, giving verdicts) of an
 * administrator of this account. Only someone who holds it may change it; the last holder of an
 * account cannot withdraw their own, so an inbox is never left without a reader.
 */
export async function setTriagePermission(
  db: Db,
  accountId: number,
  actor: Pick<Admin, 'id' | 'can_triage' | 'role'>,
  adminId: number,
  canTriage: boolean,
): Promise<Admin> {
  if (actor.can_triage !== 1) throw forbidden('Changing the triage permission needs the triage permission');
  const row = await findAdmin(db, accountId, adminId);
  if (!row) throw adminNotFound();
  if (!canTriage && adminId === actor.id) {
    const holders = (await listAccountAdmins(db, accountId)).filter((a) => a.can_triage === 1);
    if (holders.length <= 1) {
      throw new AppError('validation_failed', {
        details: { can_triage: ['you are the account’s last administrator with the triage permission'] },
      });
    }
  }
  await db.transaction().execute(async (trx) => {
    await updateAdmin(trx, accountId, adminId, { can_triage: canTriage ? 1 : 0, updated_at: Date.now() });
    await recordAudit(trx, {
      accountId,
      action: 'admin.triage_changed',
      object: { type: 'admin', id: adminId, label: row.email },
      changes: diffFields({ can_triage: row.can_triage === 1 }, { can_triage: canTriage }),
    });
  });
  return toAdmin({ ...row, can_triage: canTriage ? 1 : 0 });
}
