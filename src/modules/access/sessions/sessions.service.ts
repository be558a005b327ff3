import { recordAudit } from '../../../core/audit/audit.js';
import type { SecretBox } from '../../../core/auth/secret-box.js';
import type { SignInThrottle } from '../../../core/auth/sign-in-throttle.js';
import { hashToken, isWellFormedToken, newToken } from '../../../core/auth/tokens.js';
import type { Db } from '../../../core/db/database.js';
import type { MfaPending } from '../../../core/db/schema.js';
import { ssoRequired } from '../../../core/errors.js';
import { type Admin, actorOfAdmin, changePassword, checkCredentials } from '../admins/admins.service.js';
import { acceptInvitation, openInvitation } from '../invitations/invitations.service.js';
import { PENDING_SESSION_MS } from '../mfa/mfa.model.js';
import {
  hasSecondFactor,
  mfaEnrolmentRequired,
  mfaStateAfterPassword,
  type RelyingParty,
  type SecondStepProof,
  verifySecondStep,
} from '../mfa/mfa.service.js';
import { securitySettingsOf } from '../security/security.service.js';
import {
  deleteOtherSessions,
  deleteSession,
  deleteStaleSessionsOfAllAdmins,
  findSessionWithAdmin,
  insertSession,
  touchSession,
} from './sessions.repository.js';

/** How long a session lives: `idleMs` without a request, `maxMs` at most. */
export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

/** How much of a User-Agent is kept: enough to name the browser and system, never unbounded. */
export const USER_AGENT_MAX = 400;

export function boundedUserAgent(value: string | undefined): string | null {
  return value ? value.slice(0, USER_AGENT_MAX) : null;
}

// "Last seen" is written at most this often, so browsing does not write on every request.
const TOUCH_EVERY_MS = 60_000;

export interface ActiveSession {
  /** SHA-256 of the cookie's token: identifies the session without being it. */
  idHash: string;
  admin: Admin;
  /** Null: a full session; else what it waits for (the second step, or a first factor). */
  mfaPending: MfaPending | null;
}

/** How someone proves who they are when signing in. */
export type SignInProof =
  /** The sign-in form: their address and password (throttled against guessing). */
  | { password: string; email: string }
  /** A setup or invitation link accepted with a new password: the link's token is the proof. */
  | { password: string; linkToken: string; email?: string | undefined; name?: string | undefined };

export interface SignInProps {
  proof: SignInProof;
  /** The session the browser signs in from (its id hash), which ends: a new id at every sign-in. */
  previous: string | null;
  /** Where the attempt comes from, for the throttle (and the sessions page). */
  clientAddress: string;
  /** The browser's User-Agent, for the sessions page. */
  userAgent?: string | undefined;
  throttle: SignInThrottle;
  lifetime: SessionLifetime;
  /** ADMIN_MFA_REQUIRED: every administrator and operator must have a second factor. */
  mfaRequiredEverywhere: boolean;
}

export interface SignedInSession extends ActiveSession {
  /** For the session cookie: the only place the session's token exists. */
  token: string;
}

/**
 * Signs an administrator in, by password or by accepting a link: checks the proof, ends the
 * browser's earlier session and starts a new one. The caller sets the cookie from `token`.
 */
export async function signIn(db: Db, props: SignInProps): Promise<SignedInSession> {
  // Cross-account by design: the proof alone identifies the administrator, and so their account.
  const { proof } = props;
  let admin: Admin;
  if ('linkToken' in proof) {
    // An SSO-only account takes new administrators through its identity provider, not links.
    const { invitation } = await openInvitation(db, proof.linkToken);
    if (invitation.account_id !== null && (await securitySettingsOf(db, invitation.account_id)).sso_only) {
      throw ssoRequired();
    }
    admin = await acceptInvitation(db, proof.linkToken, proof);
  } else {
    // Guessing a password is throttled; a link's token cannot be guessed and works once.
    await props.throttle.attempt(props.clientAddress, proof.email);
    admin = await checkCredentials(db, proof.email, proof.password);
    await refuseUnlessPasswordAllowed(db, admin);
  }
  // With a second factor, the password only opens a session that waits for it; where MFA is
  // required and there is none, one that can only enrol one.
  const mfaPending = await mfaStateAfterPassword(db, admin, props.mfaRequiredEverywhere);
  return startSession(db, {
    admin,
    previous: props.previous,
    lifetime: props.lifetime,
    mfaPending,
    method: 'linkToken' in proof ? 'link' : 'password',
    address: props.clientAddress,
    userAgent: props.userAgent,
  });
}

/**
 * In an account that is "SSO only", only its break-glass owners who have a second factor sign in
 * with a password; everyone else is sent to the identity provider (403 `sso_required`).
 */
export async function refuseUnlessPasswordAllowed(db: Db, admin: Admin): Promise<void> {
  if (admin.account_id === null) return;
  if (!(await securitySettingsOf(db, admin.account_id)).sso_only) return;
  const breakGlass = admin.break_glass === 1 && admin.account_role === 'owner';
  if (breakGlass && (await hasSecondFactor(db, admin.id))) return;
  throw ssoRequired();
}

export interface StartSessionProps {
  admin: Admin;
  /** The browser's earlier session (its id hash), which ends: a new id at every step. */
  previous: string | null;
  lifetime: SessionLifetime;
  /** Null for a full session (SSO sign-ins, and a completed second step). */
  mfaPending?: MfaPending | null;
  /** How they signed in: password, link, oidc, saml. */
  method: string;
  address?: string | null | undefined;
  userAgent?: string | null | undefined;
}

/**
 * Starts a session for an administrator whose identity is already proved: ends the browser's
 * earlier one and returns the new token for the cookie. A session still waiting for MFA lives
 * 15 minutes at most. The SSO sign-in calls it for a full session directly (its IdP enforces
 * its own MFA); the second step of a local sign-in calls it once the step is done.
 */
export async function startSession(db: Db, props: StartSessionProps): Promise<SignedInSession> {
  const { admin } = props;
  const mfaPending = props.mfaPending ?? null;
  const { token, hash } = newToken();
  const now = Date.now();
  const maxMs = mfaPending ? Math.min(PENDING_SESSION_MS, props.lifetime.maxMs) : props.lifetime.maxMs;
  const start = async (trx: Db) => {
    if (props.previous !== null) await deleteSession(trx, props.previous);
    await insertSession(trx, {
      id_hash: hash,
      user_id: admin.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + maxMs,
      address: props.address ?? null,
      user_agent: boundedUserAgent(props.userAgent ?? undefined),
      method: props.method,
      mfa_pending: mfaPending,
    });
    // Signed in once the session is a full one (a pending one records its second step instead).
    if (mfaPending === null) {
      await recordAudit(trx, {
        accountId: admin.account_id,
        action: 'admin.signed_in',
        object: { type: 'admin', id: admin.id, label: admin.email },
        changes: { method: { from: null, to: props.method } },
        actor: actorOfAdmin(admin),
      });
    }
  };
  await (db.isTransaction ? start(db) : db.transaction().execute(start));
  // Sign-ins are rare: a good moment to forget sessions that ended without a sign-out.
  await deleteStaleSessionsOfAllAdmins(db, now, props.lifetime.idleMs);
  return { token, idHash: hash, admin, mfaPending };
}

/**
 * The second step of a local sign-in (throttled like the password): a TOTP code, a recovery code
 * or a passkey; the waiting session ends and a full one (a new id) starts.
 */
export async function completeSecondStep(
  db: Db,
  props: {
    session: ActiveSession;
    proof: SecondStepProof;
    box: SecretBox;
    rp: RelyingParty;
    clientAddress: string;
    userAgent?: string | undefined;
    throttle: SignInThrottle;
    lifetime: SessionLifetime;
  },
): Promise<SignedInSession> {
  const { admin, idHash } = props.session;
  await props.throttle.attempt(props.clientAddress, `mfa:${admin.email}`);
  await verifySecondStep(db, props.box, admin, idHash, props.rp, props.proof);
  return startSession(db, {
    admin,
    previous: idHash,
    lifetime: props.lifetime,
    method: 'password',
    address: props.clientAddress,
    userAgent: props.userAgent,
  });
}

/**
 * A session that had to enrol a first factor becomes a full one (a new id) once it has one; 409
 * `mfa_enrolment_required` before. A full session stays as it is (null).
 */
export async function finishRequiredEnrolment(
  db: Db,
  props: {
    session: ActiveSession;
    lifetime: SessionLifetime;
    clientAddress: string;
    userAgent?: string | undefined;
  },
): Promise<SignedInSession | null> {
  const { admin, idHash, mfaPending } = props.session;
  if (mfaPending !== 'enrol') return null;
  if (!(await hasSecondFactor(db, admin.id))) throw mfaEnrolmentRequired();
  return startSession(db, {
    admin,
    previous: idHash,
    lifetime: props.lifetime,
    method: 'password',
    address: props.clientAddress,
    userAgent: props.userAgent,
  });
}

/** The live session a cookie token names, or null; an expired one is deleted on sight. */
export async function resumeSession(
  db: Db,
  token: string | undefined,
  lifetime: SessionLifetime,
): Promise<ActiveSession | null> {
  if (!isWellFormedToken(token)) return null;
  const idHash = hashToken(token);
  const row = await findSessionWithAdmin(db, idHash);
  if (!row) return null;
  const now = Date.now();
  // A disabled administrator's sessions end at once (disabling deletes them; this covers a race).
  if (row.disabled_at !== null || row.expires_at <= now || row.last_seen_at + lifetime.idleMs <= now) {
    await deleteSession(db, idHash);
    return null;
  }
  if (now - row.last_seen_at >= TOUCH_EVERY_MS) await touchSession(db, idHash, now);
  const { last_seen_at: _seen, expires_at: _end, mfa_pending: mfaPending, ...admin } = row;
  return { idHash, admin, mfaPending };
}

/** Signs out: the session ends, recorded as its administrator's act. */
export async function endSession(db: Db, session: ActiveSession): Promise<void> {
  const { admin } = session;
  await db.transaction().execute(async (trx) => {
    await deleteSession(trx, session.idHash);
    await recordAudit(trx, {
      accountId: admin.account_id,
      action: 'admin.signed_out',
      object: { type: 'admin', id: admin.id, label: admin.email },
      actor: actorOfAdmin(admin),
    });
  });
}

/**
 * Changes the signed-in administrator's password once the current one is confirmed (guessing it
 * is throttled like signing in): signed out everywhere else, still signed in here.
 */
export async function changeOwnPassword(
  db: Db,
  props: {
    session: ActiveSession;
    input: { current_password: string; new_password: string };
    clientAddress: string;
    throttle: SignInThrottle;
  },
): Promise<void> {
  const { admin, idHash } = props.session;
  await props.throttle.attempt(props.clientAddress, admin.email);
  await changePassword(db, admin.account_id, admin.id, props.input);
  await deleteOtherSessions(db, admin.account_id, admin.id, idHash);
}
