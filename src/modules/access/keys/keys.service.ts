import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../../core/auth/api-key-secret.js';
import { isPermission, normalizePermissions, type Permission } from '../../../core/auth/permissions.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { checkName } from '../../../core/fields.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import { getAccount } from '../accounts/accounts.service.js';
import { forgetKey, rememberedKey, rememberKey } from './keys.cache.service.js';
import {
  type ApiKeyRow,
  countKeys,
  findAccountIdOfAnyKey,
  findKey,
  findKeyByHash,
  insertKey,
  listKeys,
  updateKey,
} from './keys.repository.js';

export const MAX_RATE_LIMIT = 1_000_000;

const keyNotFound = () => new AppError('api_key_not_found');

export interface ApiKey extends Omit<ApiKeyRow, 'permissions' | 'secret_hash'> {
  permissions: Permission[];
}

function parsePermissions(stored: string): Permission[] {
  return (JSON.parse(stored) as string[]).filter(isPermission);
}

function toApiKey(row: ApiKeyRow): ApiKey {
  const { secret_hash: _hidden, permissions, ...rest } = row;
  return { ...rest, permissions: parsePermissions(permissions) };
}

export interface CreateKeyProps {
  accountId: number;
  name: unknown;
  /** Permission strings such as "groups:write"; anything else is a validation error. */
  permissions: readonly unknown[];
  rateLimit: number;
  /** Epoch ms, or an ISO 8601 date-time as the web interface sends it. */
  expiresAt?: number | string | null;
}

function checkExpiry(errors: FieldErrorCollector, value: number | string | null | undefined, now: number) {
  if (value === undefined || value === null || value === '') return null;
  const at = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(at)) errors.add('expires_at', 'must be a date and time (ISO 8601)');
  else if (at <= now) errors.add('expires_at', 'must be in the future');
  return at;
}

function checkRateLimit(errors: FieldErrorCollector, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT) {
    errors.add('rate_limit', `must be an integer from 1 to ${MAX_RATE_LIMIT}`);
  }
}

/** Creates an API key; the returned `key` is the only time the secret exists outside the client. */
export async function createKey(db: Db, props: CreateKeyProps): Promise<ApiKey & { key: string }> {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', props.name);
  checkRateLimit(errors, props.rateLimit);
  const now = Date.now();
  const expiresAt = checkExpiry(errors, props.expiresAt, now);
  const permissions: Permission[] = [];
  for (const p of props.permissions) {
    if (typeof p === 'string' && isPermission(p)) permissions.push(p);
    else errors.add('permissions', `unknown permission ${JSON.stringify(p)}`);
  }
  if (props.permissions.length === 0) errors.add('permissions', 'must grant at least one permission');
  errors.throwIfAny();
  await getAccount(db, props.accountId);
  const secret = generateApiKey();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertKey(trx, props.accountId, {
      name,
      prefix: secret.prefix,
      secret_hash: secret.hash,
      permissions: JSON.stringify(normalizePermissions(permissions)),
      rate_limit: props.rateLimit,
      created_at: now,
      expires_at: expiresAt,
    });
    const key = toApiKey(inserted);
    await recordAudit(trx, {
      accountId: props.accountId,
      action: 'api_key.created',
      object: { type: 'api_key', id: key.id, label: key.name },
      changes: diffFields(
        null,
        {
          name: key.name,
          permissions: key.permissions,
          rate_limit: key.rate_limit,
          expires_at: key.expires_at,
          key: 1,
        },
        { secrets: ['key'] },
      ),
    });
    return inserted;
  });
  return { ...toApiKey(row), key: secret.key };
}

export async function keysOfAccount(db: Db, accountId: number): Promise<ApiKey[]> {
  await getAccount(db, accountId);
  return (await listKeys(db, accountId)).map(toApiKey);
}

/** One page of the account's keys, oldest first (the `vigil key list` command). */
export async function pageOfKeys(db: Db, accountId: number, window: ListWindow): Promise<ListPage<ApiKey>> {
  await getAccount(db, accountId);
  const page = await readList(
    window,
    () => countKeys(db, accountId),
    (limit, offset) => listKeys(db, accountId, { limit, offset }),
  );
  return { count: page.count, items: page.items.map(toApiKey) };
}

async function getKey(db: Db, accountId: number, keyId: number): Promise<ApiKeyRow> {
  const row = await findKey(db, accountId, keyId);
  if (!row) throw keyNotFound();
  return row;
}

/** Operator-wide: the account of a key named by its id alone (the `vigil` command); 404 when there is none. */
export async function accountOfAnyKey(db: Db, keyId: number): Promise<number> {
  const accountId = await findAccountIdOfAnyKey(db, keyId);
  if (accountId === undefined) throw keyNotFound();
  return accountId;
}

/** Revokes a key of the account at once; revoking twice keeps the first time. */
export async function revokeKey(db: Db, accountId: number, keyId: number): Promise<ApiKey> {
  const row = await getKey(db, accountId, keyId);
  if (row.revoked_at !== null) return toApiKey(row);
  const revoked = await db.transaction().execute(async (trx) => {
    const updated = await updateKey(trx, accountId, row.id, { revoked_at: Date.now() });
    await recordAudit(trx, {
      accountId,
      action: 'api_key.revoked',
      object: { type: 'api_key', id: row.id, label: row.name },
    });
    return updated;
  });
  forgetKey(row.id);
  return toApiKey(revoked ?? row);
}

/** Changes the per-minute budget of a key of the account. */
export async function setKeyRateLimit(
  db: Db,
  accountId: number,
  keyId: number,
  rateLimit: number,
): Promise<ApiKey> {
  const errors = new FieldErrorCollector();
  checkRateLimit(errors, rateLimit);
  errors.throwIfAny();
  const row = await getKey(db, accountId, keyId);
  const updated = await db.transaction().execute(async (trx) => {
    const changed = await updateKey(trx, accountId, row.id, { rate_limit: rateLimit });
    await recordAudit(trx, {
      accountId,
      action: 'api_key.updated',
      object: { type: 'api_key', id: row.id, label: row.name },
      changes: diffFields({ rate_limit: row.rate_limit }, { rate_limit: rateLimit }),
    });
    return changed;
  });
  forgetKey(row.id);
  return toApiKey(updated ?? row);
}

export interface AuthenticatedKey {
  keyId: number;
  accountId: number;
  /** How the audit log names the key: its name and prefix. */
  label: string;
  /** Identifies the key's rate-limit budget: derived from the hash, never the secret. */
  budgetId: string;
  permissions: Permission[];
  rateLimit: number;
}

/**
 * The key a request presents, if it is well formed, known, not revoked and not expired.
 * Remembered for `cacheMs` after it authenticates (see keys.cache.service.ts): revocation elsewhere
 * takes effect within that time.
 */
export async function authenticateKey(
  db: Db,
  key: string,
  now: number,
  cacheMs = 0,
): Promise<AuthenticatedKey | null> {
  if (!isWellFormedApiKey(key)) return null;
  const hash = hashApiKey(key);
  const remembered = rememberedKey<AuthenticatedKey>(hash, now);
  if (remembered !== undefined) return remembered;
  const row = await findKeyByHash(db, hash);
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
  const authenticated: AuthenticatedKey = {
    keyId: row.id,
    accountId: row.account_id,
    label: `${row.name} (${row.prefix}…)`,
    budgetId: `key:${hash.slice(0, 32)}`,
    permissions: parsePermissions(row.permissions),
    rateLimit: row.rate_limit,
  };
  if (cacheMs > 0) rememberKey(hash, authenticated, row.expires_at, now + cacheMs);
  return authenticated;
}
