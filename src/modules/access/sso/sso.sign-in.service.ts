import { randomBytes } from 'node:crypto';
import { type AuditActor, recordAudit } from '../../../core/audit/audit.js';
import { hashPassword } from '../../../core/auth/password.js';
import type { Db } from '../../../core/db/database.js';
import type { AccountRole, SsoProtocol } from '../../../core/db/schema.js';
import { normalizeEmail } from '../../../core/fields.js';
import { securitySettingsOf } from '../security/security.service.js';
import { type SessionLifetime, type SignedInSession, startSession } from '../sessions/sessions.service.js';
import type { SsoConnection } from './sso.model.js';
import { domainAllowed, mappedRole, type RefusalReason, SsoRefusal } from './sso.model.js';
import { findAdminByNormalizedEmail, insertSsoAdmin, updateSsoAdmin } from './sso.repository.js';

/** Who the identity provider says signed in, once its answer is verified. */
export interface IdpIdentity {
  email: string;
  name: string | null;
  groups: string[];
}

export interface SsoSignInProps {
  connection: SsoConnection;
  protocol: SsoProtocol;
  identity: IdpIdentity;
  previous: string | null;
  lifetime: SessionLifetime;
  address: string | null;
  userAgent: string | null;
}

/**
 * Signs in the administrator the IdP vouches for: an existing administrator of this account (their
 * role follows the group mapping when it names one; an owner stays an owner), or a new one made
 * just in time with the mapped role or the account's default role. An address of another
 * account's administrator or of an operator is refused. One transaction: the administrator, the
 * audit rows and the session commit together. A full session: the IdP enforces its own MFA.
 */
export async function signInFromIdp(
  db: Db,
  props: SsoSignInProps,
): Promise<SignedInSession & { created: boolean }> {
  const { connection, identity } = props;
  const accountId = connection.accountId;
  const email = identity.email.trim();
  if (!domainAllowed(email, connection.allowedDomains)) throw new SsoRefusal('domain_not_allowed', email);
  const emailNormalized = normalizeEmail(email);
  const role = connection.groupsClaim ? mappedRole(connection.roleMapping, identity.groups) : null;
  // Hashed outside the transaction (slow by design): a password nobody knows, never used.
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  return db.transaction().execute(async (trx) => {
    const existing = await findAdminByNormalizedEmail(trx, emailNormalized);
    const now = Date.now();
    let created = false;
    let admin: Awaited<ReturnType<typeof findAdminByNormalizedEmail>>;
    if (existing) {
      if (existing.role !== 'account_admin' || existing.account_id !== accountId) {
        throw new SsoRefusal('other_account', email);
      }
      if (existing.disabled_at !== null) throw new SsoRefusal('disabled', email);
      const nextRole: AccountRole =
        role && existing.account_role !== 'owner' ? role : (existing.account_role ?? 'campaign_manager');
      await updateSsoAdmin(trx, accountId, existing.id, {
        last_sign_in_at: now,
        ...(nextRole !== existing.account_role ? { account_role: nextRole, updated_at: now } : {}),
      });
      if (nextRole !== existing.account_role) {
        await recordAudit(trx, {
          accountId,
          action: 'admin.updated',
          object: { type: 'admin', id: existing.id, label: existing.email },
          changes: { account_role: { from: existing.account_role, to: nextRole } },
          actor: actorOf(existing.id, existing.email),
        });
      }
      admin = { ...existing, account_role: nextRole, last_sign_in_at: now };
    } else {
      const accountRole = role ?? (await securitySettingsOf(trx, accountId)).default_role;
      admin = await insertSsoAdmin(trx, accountId, {
        email,
        email_normalized: emailNormalized,
        name: (identity.name ?? '').trim().slice(0, 150),
        password_hash: unusable,
        account_role: accountRole,
        at: now,
      });
      created = true;
      await recordAudit(trx, {
        accountId,
        action: 'admin.created',
        object: { type: 'admin', id: admin.id, label: admin.email },
        changes: {
          account_role: { from: null, to: accountRole },
          method: { from: null, to: props.protocol },
        },
        actor: actorOf(admin.id, admin.email),
      });
    }
    // startSession records the sign-in.
    const { password_hash: _hidden, ...identityRow } = admin;
    const session = await startSession(trx, {
      admin: identityRow,
      previous: props.previous,
      lifetime: props.lifetime,
      method: props.protocol,
      address: props.address,
      userAgent: props.userAgent,
    });
    return { ...session, created };
  });
}

const actorOf = (id: number, email: string): AuditActor => ({ kind: 'admin', id, label: email });

/**
 * Records a refused sign-in in the account's audit log: the reason (never the token or the
 * assertion), and the address the IdP gave when there was one.
 */
export async function recordRefusal(
  db: Db,
  accountId: number,
  protocol: SsoProtocol,
  reason: RefusalReason,
  email: string | null,
): Promise<void> {
  await db.transaction().execute((trx) =>
    recordAudit(trx, {
      accountId,
      action: 'admin.sign_in_refused',
      object: { type: 'sso_connection', id: accountId, label: protocol },
      changes: {
        reason: { from: null, to: reason },
        ...(email ? { email: { from: null, to: email.slice(0, 254) } } : {}),
      },
      actor: { kind: 'anonymous', id: null, label: email?.slice(0, 254) ?? 'unknown' },
    }),
  );
}
