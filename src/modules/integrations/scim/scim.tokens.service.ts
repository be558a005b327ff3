import { recordAudit } from '../../../core/audit/audit.js';
import {
  generateScimToken,
  hashScimToken,
  isWellFormedScimToken,
} from '../../../core/auth/scim-token-secret.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { checkName } from '../../../core/fields.js';
import { getAccount } from '../../access/index.js';
import {
  findScimTokenByHash,
  insertScimToken,
  listScimTokens,
  revokeScimTokenRow,
  type ScimTokenRow,
} from './scim.tokens.repository.js';

/** A SCIM token as the services hand it out: never its hash. */
export type ScimToken = Omit<ScimTokenRow, 'secret_hash'>;

function toScimToken(row: ScimTokenRow): ScimToken {
  const { secret_hash: _hidden, ...rest } = row;
  return rest;
}

/** Makes a SCIM bearer token for the account; the returned `token` is the only time the secret exists outside the client. */
export async function createScimToken(
  db: Db,
  props: { accountId: number; name: unknown },
): Promise<ScimToken & { token: string }> {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', props.name);
  errors.throwIfAny();
  await getAccount(db, props.accountId);
  const secret = generateScimToken();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertScimToken(trx, props.accountId, {
      name,
      prefix: secret.prefix,
      secret_hash: secret.hash,
      created_at: Date.now(),
    });
    await recordAudit(trx, {
      accountId: props.accountId,
      action: 'scim_token.created',
      object: { type: 'scim_token', id: inserted.id, label: inserted.name },
      changes: { name: { from: null, to: inserted.name }, token: { changed: true } },
    });
    return inserted;
  });
  return { ...toScimToken(row), token: secret.token };
}

/** The account's SCIM tokens, newest first, revoked ones included. */
export async function scimTokensOfAccount(db: Db, accountId: number): Promise<ScimToken[]> {
  await getAccount(db, accountId);
  return (await listScimTokens(db, accountId)).map(toScimToken);
}

/** Revokes a token of the account at once (every request checks); revoking twice keeps the first time. */
export async function revokeScimToken(db: Db, accountId: number, tokenId: number): Promise<ScimToken> {
  const row = await db.transaction().execute(async (trx) => {
    const revoked = await revokeScimTokenRow(trx, accountId, tokenId, Date.now());
    if (!revoked) throw new AppError('scim_token_not_found');
    await recordAudit(trx, {
      accountId,
      action: 'scim_token.revoked',
      object: { type: 'scim_token', id: revoked.id, label: revoked.name },
    });
    return revoked;
  });
  return toScimToken(row);
}

export interface AuthenticatedScimToken {
  tokenId: number;
  accountId: number;
  /** How the audit log names the token. */
  label: string;
  /** Identifies the token's rate-limit budget: derived from the hash, never the secret. */
  budgetId: string;
}

/** The token a request presents, if it is well formed, known and not revoked. */
export async function authenticateScimToken(db: Db, token: string): Promise<AuthenticatedScimToken | null> {
  if (!isWellFormedScimToken(token)) return null;
  const hash = hashScimToken(token);
  const row = await findScimTokenByHash(db, hash);
  if (!row || row.revoked_at !== null) return null;
  return {
    tokenId: row.id,
    accountId: row.account_id,
    label: row.name,
    budgetId: `scim:${hash.slice(0, 32)}`,
  };
}
