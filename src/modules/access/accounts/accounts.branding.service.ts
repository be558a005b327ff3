import { createHash } from 'node:crypto';
import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { checkOptionalName } from '../../../core/fields.js';
import { displayNameOf, LOGO_MAX_BYTES, type LogoType, sniffLogo } from './accounts.branding.model.js';
import {
  brandingRowsOf,
  deleteLogo,
  findLogo,
  findLogoFacts,
  type LogoFacts,
  setDisplayName,
  upsertLogo,
} from './accounts.branding.repository.js';
import { accountNotFound, getAccount } from './accounts.service.js';

/**
 * What employees see of an account: its display name (set by its administrators; the account's
 * name until then) and an optional logo, in mail and on the learner and teachable pages.
 */

export const logoNotFound = () => new AppError('account_logo_not_found');

export interface AccountSettings {
  name: string;
  display_name: string | null;
  logo: LogoFacts | null;
}

/** One account's branding as employees' mail and pages use it. */
export interface Branding {
  /** The display name, else the account's name. */
  displayName: string;
  logo: { contentType: LogoType; base64: string; sha256: string } | null;
}

export async function getAccountSettings(db: Db, accountId: number): Promise<AccountSettings> {
  const account = await getAccount(db, accountId);
  const logo = await findLogoFacts(db, accountId);
  return { name: account.name, display_name: account.display_name, logo: logo ?? null };
}

/** Sets the name employees see; empty (or null) goes back to the account's name. */
export async function setAccountDisplayName(
  db: Db,
  accountId: number,
  input: { display_name?: unknown },
): Promise<AccountSettings> {
  const errors = new FieldErrorCollector();
  const name = checkOptionalName(errors, 'display_name', input.display_name);
  errors.throwIfAny();
  await db.transaction().execute(async (trx) => {
    const before = await getAccount(trx, accountId);
    const displayName = name === '' ? null : name;
    if (!(await setDisplayName(trx, accountId, displayName, Date.now()))) throw accountNotFound();
    await recordAudit(trx, {
      accountId,
      action: 'account_settings.updated',
      object: { type: 'account', id: accountId, label: before.name },
      changes: diffFields({ display_name: before.display_name }, { display_name: displayName }),
    });
  });
  return getAccountSettings(db, accountId);
}

/** Stores an uploaded logo after reading what its bytes are; anything but PNG, JPEG or WebP is refused. */
export async function setAccountLogo(db: Db, accountId: number, bytes: Buffer): Promise<AccountSettings> {
  const errors = new FieldErrorCollector();
  const type = sniffLogo(bytes);
  if (bytes.length === 0) errors.add('logo', 'is empty');
  else if (bytes.length > LOGO_MAX_BYTES) errors.add('logo', `must be at most ${LOGO_MAX_BYTES / 1024} KiB`);
  else if (type === null) errors.add('logo', 'must be a PNG, JPEG or WebP image');
  errors.throwIfAny();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db.transaction().execute(async (trx) => {
    const before = await findLogoFacts(trx, accountId);
    await upsertLogo(trx, {
      account_id: accountId,
      content_type: type as LogoType,
      data: bytes.toString('base64'),
      byte_size: bytes.length,
      sha256,
      updated_at: Date.now(),
    });
    await recordAudit(trx, {
      accountId,
      action: 'account_logo.updated',
      object: { type: 'account_logo', id: accountId },
      changes: diffFields(
        { logo_sha256: before?.sha256 ?? null, logo_bytes: before?.byte_size ?? null },
        { logo_sha256: sha256, logo_bytes: bytes.length },
      ),
    });
  });
  return getAccountSettings(db, accountId);
}

export async function removeAccountLogo(db: Db, accountId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await deleteLogo(trx, accountId))) throw logoNotFound();
    await recordAudit(trx, {
      accountId,
      action: 'account_logo.removed',
      object: { type: 'account_logo', id: accountId },
    });
  });
}

/** The account's logo, to show its administrators. */
export async function getAccountLogo(db: Db, accountId: number) {
  const logo = await findLogo(db, accountId);
  if (!logo) throw logoNotFound();
  return { contentType: logo.content_type, bytes: Buffer.from(logo.data, 'base64'), sha256: logo.sha256 };
}

/** The branding of each of these accounts (an account that no longer exists has none). */
export async function brandingOfAccounts(
  db: Db,
  accountIds: Iterable<number>,
): Promise<Map<number, Branding>> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Map();
  const rows = await brandingRowsOf(db, ids);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        displayName: displayNameOf(r),
        logo:
          r.content_type && r.data && r.sha256
            ? { contentType: r.content_type, base64: r.data, sha256: r.sha256 }
            : null,
      },
    ]),
  );
}

/** One account's branding; the account exists (the caller read it from one of its rows). */
export async function brandingOf(db: Db, accountId: number): Promise<Branding> {
  return (await brandingOfAccounts(db, [accountId])).get(accountId) ?? { displayName: '', logo: null };
}
