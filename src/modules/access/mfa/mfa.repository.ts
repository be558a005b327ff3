import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import type { AdminMfaChallengesTable, AdminMfaFactorsTable } from '../../../core/db/schema.js';

export type FactorRow = Selectable<AdminMfaFactorsTable>;

/** An administrator's confirmed factors, oldest first. */
export function confirmedFactorsOf(db: Db, adminId: number): Promise<FactorRow[]> {
  return db
    .selectFrom('admin_mfa_factors')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('confirmed_at', 'is not', null)
    .orderBy('id')
    .execute();
}

export async function countConfirmedFactors(db: Db, adminId: number): Promise<number> {
  const row = await db
    .selectFrom('admin_mfa_factors')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('admin_id', '=', adminId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One factor of this administrator (confirmed or not). */
export function findFactor(db: Db, adminId: number, factorId: number): Promise<FactorRow | undefined> {
  return db
    .selectFrom('admin_mfa_factors')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('id', '=', factorId)
    .executeTakeFirst();
}

/** Cross-administrator by design: a passkey's credential id names its owner. */
export function findPasskeyByCredential(db: Db, credentialId: string): Promise<FactorRow | undefined> {
  return db
    .selectFrom('admin_mfa_factors')
    .selectAll()
    .where('credential_id', '=', credentialId)
    .where('kind', '=', 'passkey')
    .executeTakeFirst();
}

export function insertFactor(db: Db, values: Insertable<AdminMfaFactorsTable>): Promise<FactorRow> {
  return db.insertInto('admin_mfa_factors').values(values).returningAll().executeTakeFirstOrThrow();
}

/** An unfinished TOTP enrolment of this administrator is forgotten when a new one starts. */
export async function deleteUnconfirmedFactors(db: Db, adminId: number): Promise<void> {
  await db
    .deleteFrom('admin_mfa_factors')
    .where('admin_id', '=', adminId)
    .where('confirmed_at', 'is', null)
    .execute();
}

export async function confirmFactor(
  db: Db,
  adminId: number,
  factorId: number,
  values: { name: string; last_step: number; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('admin_mfa_factors')
    .set({ name: values.name, last_step: values.last_step, confirmed_at: values.at, last_used_at: values.at })
    .where('admin_id', '=', adminId)
    .where('id', '=', factorId)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records that a TOTP code of `step` was accepted, unless one of that step or later already was:
 * false then (a replayed code). Atomic, so two requests with one code cannot both pass.
 */
export async function advanceTotpStep(db: Db, factorId: number, step: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('admin_mfa_factors')
    .set({ last_step: step, last_used_at: at })
    .where('id', '=', factorId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updatePasskeyCounter(
  db: Db,
  factorId: number,
  counter: number,
  at: number,
): Promise<void> {
  await db
    .updateTable('admin_mfa_factors')
    .set({ counter, last_used_at: at })
    .where('id', '=', factorId)
    .execute();
}

export async function renameFactor(db: Db, adminId: number, factorId: number, name: string): Promise<void> {
  await db
    .updateTable('admin_mfa_factors')
    .set({ name })
    .where('admin_id', '=', adminId)
    .where('id', '=', factorId)
    .execute();
}

export async function deleteFactor(db: Db, adminId: number, factorId: number): Promise<void> {
  await db
    .deleteFrom('admin_mfa_factors')
    .where('admin_id', '=', adminId)
    .where('id', '=', factorId)
    .execute();
}

/** Every factor and recovery code of an administrator (an owner's reset). */
export async function deleteAllFactors(db: Db, adminId: number): Promise<number> {
  const result = await db.deleteFrom('admin_mfa_factors').where('admin_id', '=', adminId).executeTakeFirst();
  await db.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
  return Number(result.numDeletedRows);
}

export async function replaceRecoveryCodes(
  db: Db,
  adminId: number,
  hashes: string[],
  at: number,
): Promise<void> {
  await db.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
  await db
    .insertInto('admin_recovery_codes')
    .values(hashes.map((code_hash) => ({ admin_id: adminId, code_hash, created_at: at, used_at: null })))
    .execute();
}

export async function deleteRecoveryCodes(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
}

export async function countUnusedRecoveryCodes(db: Db, adminId: number): Promise<number> {
  const row = await db
    .selectFrom('admin_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('admin_id', '=', adminId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Uses a recovery code once: false when it is not one of theirs or was used already. */
export async function spendRecoveryCode(
  db: Db,
  adminId: number,
  codeHash: string,
  at: number,
): Promise<boolean> {
  const result = await db
    .updateTable('admin_recovery_codes')
    .set({ used_at: at })
    .where('admin_id', '=', adminId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertChallenge(db: Db, values: AdminMfaChallengesTable): Promise<void> {
  await db
    .deleteFrom('admin_mfa_challenges')
    .where('expires_at', '<=', values.expires_at - 3_600_000)
    .execute();
  await db
    .deleteFrom('admin_mfa_challenges')
    .where('session_id_hash', '=', values.session_id_hash)
    .where('purpose', '=', values.purpose)
    .execute();
  await db.insertInto('admin_mfa_challenges').values(values).execute();
}

/**
 * Takes the session's live challenge for this purpose: it is deleted whatever happens next, so
 * it answers once. Undefined when there is none (or it expired).
 */
export async function takeChallenge(
  db: Db,
  sessionIdHash: string,
  purpose: AdminMfaChallengesTable['purpose'],
  now: number,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom('admin_mfa_challenges')
    .where('session_id_hash', '=', sessionIdHash)
    .where('purpose', '=', purpose)
    .returning(['challenge', 'expires_at'])
    .executeTakeFirst();
  return row && row.expires_at > now ? row.challenge : undefined;
}

/** Every session of an administrator ends when an owner resets their factors. */
export async function deleteSessionsOf(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('admin_sessions').where('user_id', '=', adminId).execute();
}

/** How many confirmed factors each administrator of the account has (those with none are absent). */
export async function factorCountsOfAccount(db: Db, accountId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('admin_mfa_factors')
    .select(['admin_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .groupBy('admin_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.admin_id), Number(r.n)]));
}

/** What an administrator's reset removes: confirmed factors by kind, unused recovery codes, sessions. */
export async function resetInventoryOf(
  db: Db,
  adminId: number,
): Promise<{ totp: number; passkeys: number; recoveryCodes: number; sessions: number }> {
  const kinds = await db
    .selectFrom('admin_mfa_factors')
    .select(['kind', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('admin_id', '=', adminId)
    .where('confirmed_at', 'is not', null)
    .groupBy('kind')
    .execute();
  const sessions = await db
    .selectFrom('admin_sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', adminId)
    .executeTakeFirstOrThrow();
  const of = (kind: string) => Number(kinds.find((k) => k.kind === kind)?.n ?? 0);
  return {
    totp: of('totp'),
    passkeys: of('passkey'),
    recoveryCodes: await countUnusedRecoveryCodes(db, adminId),
    sessions: Number(sessions.n),
  };
}
