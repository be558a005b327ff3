import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse as VerifyRegistration,
} from '@simplewebauthn/server';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { type AuditActor, recordAudit } from '../../../core/audit/audit.js';
import type { SecretBox } from '../../../core/auth/secret-box.js';
import { hashToken } from '../../../core/auth/tokens.js';
import type { Db } from '../../../core/db/database.js';
import type { MfaPending } from '../../../core/db/schema.js';
import { AppError, validationFailed } from '../../../core/errors.js';
import { type Admin, adminByEmailOperatorWide, adminsOfAccount } from '../admins/admins.service.js';
import { changeSecuritySettings, securitySettingsOf } from '../security/security.service.js';
import {
  CHALLENGE_TTL_MS,
  factorName,
  newRecoveryCodes,
  normalizeRecoveryCode,
  normalizeTotpCode,
} from './mfa.model.js';
import {
  advanceTotpStep,
  confirmedFactorsOf,
  confirmFactor,
  countConfirmedFactors,
  countUnusedRecoveryCodes,
  deleteAllFactors,
  deleteFactor,
  deleteRecoveryCodes,
  deleteSessionsOf,
  deleteUnconfirmedFactors,
  type FactorRow,
  factorCountsOfAccount,
  findFactor,
  insertChallenge,
  insertFactor,
  renameFactor,
  replaceRecoveryCodes,
  resetInventoryOf,
  spendRecoveryCode,
  takeChallenge,
  updatePasskeyCounter,
} from './mfa.repository.js';

/**
 * Second factors of local sign-in: TOTP (RFC 6238: 30 s, 6 digits, one step either side, each
 * code used once), ten one-time recovery codes, and passkeys / security keys (WebAuthn). The
 * sign-in flow (`sessions`) asks `mfaStateAfterPassword` what a new session still needs and
 * `verifySecondStep` to check the second step; each administrator manages their own factors,
 * an owner resets another's. Every change and every second step is in the audit log; no seed
 * and no code ever is.
 */

export type { FactorRow };
export type SecondStepProof =
  | { totp_code: string }
  | { recovery_code: string }
  | { passkey: AuthenticationResponseJSON };

/** Who the browser talks to, for WebAuthn: the host of PUBLIC_URL (or of the request) and its origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/**
 * @simplewebauthn/server (with its certificate and ASN.1 readers, some 600 KB of code) and the QR
 * encoder are read when a passkey or an enrolment first needs them, not at start.
 */
let webAuthnModule: Promise<typeof import('@simplewebauthn/server')> | undefined;
function webAuthn(): Promise<typeof import('@simplewebauthn/server')> {
  webAuthnModule ??= import('@simplewebauthn/server');
  return webAuthnModule;
}

/** Reads the passkey and QR code now: the server does before it listens (see loadSamlCode). */
export async function loadPasskeyCode(): Promise<void> {
  await Promise.all([webAuthn(), import('qrcode')]);
}

const ISSUER = 'Vigil';
/** One 30-second step either side of now. */
const TOTP_TOLERANCE_SECONDS = 30;

export const mfaFactorNotFound = () => new AppError('mfa_factor_not_found');
export const invalidMfaCode = () => new AppError('invalid_mfa_code');
export const lastMfaFactor = () => new AppError('last_mfa_factor');
export const mfaEnrolmentRequired = () => new AppError('mfa_enrolment_required');

const subject = (admin: Admin) => ({ type: 'admin', id: admin.id, label: admin.email });
const actorOf = (admin: Admin): AuditActor => ({
  kind: admin.role === 'operator' ? 'operator' : 'admin',
  id: admin.id,
  label: admin.email,
});

/** Whether the administrator has a second factor (the sso helper's break-glass owners must). */
export async function hasSecondFactor(db: Db, adminId: number): Promise<boolean> {
  return (await countConfirmedFactors(db, adminId)) > 0;
}

/** Whether the administrator must have a second factor: the operator setting, or their account's. */
export async function mfaRequiredFor(
  db: Db,
  admin: Pick<Admin, 'account_id'>,
  requiredEverywhere: boolean,
): Promise<boolean> {
  if (requiredEverywhere) return true;
  if (admin.account_id === null) return false;
  return (await securitySettingsOf(db, admin.account_id)).require_mfa;
}

/**
 * What a session started by a password (or a link) still needs: the second step ('verify') when
 * the administrator has a factor, a first enrolment ('enrol') when MFA is required of them and
 * they have none, nothing (null) otherwise.
 */
export async function mfaStateAfterPassword(
  db: Db,
  admin: Admin,
  requiredEverywhere: boolean,
): Promise<MfaPending | null> {
  if (await hasSecondFactor(db, admin.id)) return 'verify';
  return (await mfaRequiredFor(db, admin, requiredEverywhere)) ? 'enrol' : null;
}

export interface FactorsOverview {
  factors: FactorRow[];
  recoveryCodesLeft: number;
  required: boolean;
}

/** The administrator's own factors, how many recovery codes they have left, and whether MFA is required of them. */
export async function factorsOverview(
  db: Db,
  admin: Admin,
  requiredEverywhere: boolean,
): Promise<FactorsOverview> {
  return {
    factors: await confirmedFactorsOf(db, admin.id),
    recoveryCodesLeft: await countUnusedRecoveryCodes(db, admin.id),
    required: await mfaRequiredFor(db, admin, requiredEverywhere),
  };
}

export interface TotpEnrolment {
  factorId: number;
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code: an SVG data URL. */
  qrCode: string;
}

/** Starts a TOTP enrolment: a new seed (sealed at rest), shown once as a QR code and as text. */
export async function startTotpEnrolment(db: Db, box: SecretBox, admin: Admin): Promise<TotpEnrolment> {
  const secret = generateSecret();
  await deleteUnconfirmedFactors(db, admin.id);
  const factor = await insertFactor(db, {
    admin_id: admin.id,
    account_id: admin.account_id,
    kind: 'totp',
    name: 'Authenticator app',
    secret_sealed: box.seal(secret),
    created_at: Date.now(),
    confirmed_at: null,
  });
  const otpauthUrl = generateURI({ issuer: ISSUER, label: admin.email, secret });
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return {
    factorId: factor.id,
    secret,
    otpauthUrl,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/** The time step of a correct code (±1 step, none at or before `after`), or null. */
async function totpStep(secret: string, code: string, after: number | null): Promise<number | null> {
  try {
    const result = await verifyTotp({
      secret,
      token: code,
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(after !== null ? { afterTimeStep: after } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

export interface Enrolled {
  factor: FactorRow;
  /** The recovery codes, when this was the administrator's first factor (shown once); else null. */
  recoveryCodes: string[] | null;
}

async function finishEnrolment(
  trx: Db,
  admin: Admin,
  factor: FactorRow,
  wasFirst: boolean,
): Promise<Enrolled> {
  let recoveryCodes: string[] | null = null;
  if (wasFirst) {
    recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(trx, admin.id, recoveryCodes.map(hashRecoveryCode), Date.now());
  }
  await recordAudit(trx, {
    accountId: admin.account_id,
    action: 'mfa.enrolled',
    object: subject(admin),
    changes: { factor: { from: null, to: `${factor.kind}: ${factor.name}` } },
  });
  return { factor, recoveryCodes };
}

/** Confirms a TOTP enrolment with its first code; the first factor also brings ten recovery codes. */
export async function confirmTotpEnrolment(
  db: Db,
  box: SecretBox,
  admin: Admin,
  input: { factor_id: number; code: string; name?: string | undefined },
): Promise<Enrolled> {
  const name = factorName(input.name, 'Authenticator app');
  if (name === null) throw validationFailed({ name: ['must be at most 64 characters'] });
  const factor = await findFactor(db, admin.id, input.factor_id);
  if (factor?.kind !== 'totp' || factor.confirmed_at !== null || !factor.secret_sealed) {
    throw mfaFactorNotFound();
  }
  const code = normalizeTotpCode(input.code);
  const step = code === null ? null : await totpStep(box.open(factor.secret_sealed), code, null);
  if (step === null) throw validationFailed({ code: ['is not the current code of this authenticator'] });
  return db.transaction().execute(async (trx) => {
    const wasFirst = (await countConfirmedFactors(trx, admin.id)) === 0;
    const at = Date.now();
    if (!(await confirmFactor(trx, admin.id, factor.id, { name, last_step: step, at })))
      throw mfaFactorNotFound();
    return finishEnrolment(trx, admin, { ...factor, name, last_step: step, confirmed_at: at }, wasFirst);
  });
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** Options for the browser to create a passkey (the challenge kept server-side, for this session, briefly). */
export async function passkeyRegistrationOptions(
  db: Db,
  admin: Admin,
  sessionIdHash: string,
  rp: RelyingParty,
) {
  const existing = (await confirmedFactorsOf(db, admin.id)).filter((f) => f.kind === 'passkey');
  const { generateRegistrationOptions } = await webAuthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: admin.email,
    userDisplayName: admin.name || admin.email,
    userID: new TextEncoder().encode(`vigil-admin-${admin.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((f) => ({ id: f.credential_id ?? '' })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await insertChallenge(db, {
    challenge: options.challenge,
    session_id_hash: sessionIdHash,
    admin_id: admin.id,
    purpose: 'register',
    expires_at: Date.now() + CHALLENGE_TTL_MS,
  });
  return options;
}

/** Verifies the browser's new passkey against this session's challenge (used once) and keeps it. */
export async function registerPasskey(
  db: Db,
  admin: Admin,
  sessionIdHash: string,
  rp: RelyingParty,
  input: { name?: string | undefined; response: unknown },
): Promise<Enrolled> {
  const name = factorName(input.name, 'Passkey');
  if (name === null) throw validationFailed({ name: ['must be at most 64 characters'] });
  const challenge = await takeChallenge(db, sessionIdHash, 'register', Date.now());
  if (!challenge)
    throw validationFailed({ response: ['no passkey registration was started, or it expired'] });
  let verified: Awaited<ReturnType<typeof VerifyRegistration>>;
  try {
    const { verifyRegistrationResponse } = await webAuthn();
    verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    throw validationFailed({ response: ['is not a valid passkey registration'] });
  }
  if (!verified.verified) throw validationFailed({ response: ['is not a valid passkey registration'] });
  const { credential } = verified.registrationInfo;
  return db.transaction().execute(async (trx) => {
    const wasFirst = (await countConfirmedFactors(trx, admin.id)) === 0;
    const at = Date.now();
    const factor = await insertFactor(trx, {
      admin_id: admin.id,
      account_id: admin.account_id,
      kind: 'passkey',
      name,
      credential_id: credential.id,
      public_key: b64url(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: at,
      confirmed_at: at,
    });
    return finishEnrolment(trx, admin, factor, wasFirst);
  });
}

/** Options for the browser to sign with one of the administrator's passkeys (second step). */
export async function passkeyAuthenticationOptions(
  db: Db,
  admin: Admin,
  sessionIdHash: string,
  rp: RelyingParty,
) {
  const passkeys = (await confirmedFactorsOf(db, admin.id)).filter((f) => f.kind === 'passkey');
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((f) => ({
      id: f.credential_id ?? '',
      ...(f.transports ? { transports: JSON.parse(f.transports) as string[] } : {}),
    })),
    userVerification: 'preferred',
  });
  await insertChallenge(db, {
    challenge: options.challenge,
    session_id_hash: sessionIdHash,
    admin_id: admin.id,
    purpose: 'authenticate',
    expires_at: Date.now() + CHALLENGE_TTL_MS,
  });
  return options;
}

export function hashRecoveryCode(code: string): string {
  return hashToken(`vigil recovery code\n${normalizeRecoveryCode(code) ?? code}`);
}

/** Which proof was given, for the audit log. */
function methodOf(proof: SecondStepProof): string {
  return 'totp_code' in proof ? 'totp' : 'recovery_code' in proof ? 'recovery_code' : 'passkey';
}

async function checkProof(
  db: Db,
  box: SecretBox,
  admin: Admin,
  sessionIdHash: string,
  rp: RelyingParty,
  proof: SecondStepProof,
): Promise<boolean> {
  const now = Date.now();
  if ('totp_code' in proof) {
    const code = normalizeTotpCode(proof.totp_code);
    if (code === null) return false;
    for (const factor of await confirmedFactorsOf(db, admin.id)) {
      if (factor.kind !== 'totp' || !factor.secret_sealed) continue;
      const secret = box.open(factor.secret_sealed);
      // Any step of the window, then refused if it is not later than the last one used.
      const step = await totpStep(secret, code, null);
      if (step !== null) return advanceTotpStep(db, factor.id, step, now);
    }
    return false;
  }
  if ('recovery_code' in proof) {
    const code = normalizeRecoveryCode(proof.recovery_code);
    if (code === null) return false;
    return spendRecoveryCode(db, admin.id, hashRecoveryCode(code), now);
  }
  const challenge = await takeChallenge(db, sessionIdHash, 'authenticate', now);
  const response = proof.passkey;
  if (!challenge || typeof response?.id !== 'string') return false;
  const factor = (await confirmedFactorsOf(db, admin.id)).find(
    (f) => f.kind === 'passkey' && f.credential_id === response.id,
  );
  if (!factor?.public_key || !factor.credential_id) return false;
  try {
    const { verifyAuthenticationResponse } = await webAuthn();
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: factor.credential_id,
        publicKey: new Uint8Array(Buffer.from(factor.public_key, 'base64url')),
        counter: Number(factor.counter ?? 0),
      },
      requireUserVerification: false,
    });
    if (!verified.verified) return false;
    await updatePasskeyCounter(db, factor.id, verified.authenticationInfo.newCounter, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks the second step of a sign-in (the caller has throttled it): a TOTP code not used before,
 * an unused recovery code, or a passkey's signature over this session's challenge. Both outcomes
 * are recorded in the audit log; a wrong proof is a 401 `invalid_mfa_code`.
 */
export async function verifySecondStep(
  db: Db,
  box: SecretBox,
  admin: Admin,
  sessionIdHash: string,
  rp: RelyingParty,
  proof: SecondStepProof,
): Promise<void> {
  const ok = await checkProof(db, box, admin, sessionIdHash, rp, proof);
  await recordAudit(db, {
    accountId: admin.account_id,
    action: ok ? 'admin.mfa_verified' : 'admin.mfa_failed',
    object: subject(admin),
    changes: { method: { from: null, to: methodOf(proof) } },
    actor: actorOf(admin),
  });
  if (!ok) throw invalidMfaCode();
}

/** Renames one of the administrator's own factors. */
export async function renameOwnFactor(
  db: Db,
  admin: Admin,
  factorId: number,
  typed: unknown,
): Promise<FactorRow> {
  const factor = await findFactor(db, admin.id, factorId);
  if (!factor || factor.confirmed_at === null) throw mfaFactorNotFound();
  const name = factorName(typed, '');
  if (!name) throw validationFailed({ name: ['must be 1 to 64 characters'] });
  if (name === factor.name) return factor;
  await db.transaction().execute(async (trx) => {
    await renameFactor(trx, admin.id, factorId, name);
    await recordAudit(trx, {
      accountId: admin.account_id,
      action: 'mfa.renamed',
      object: subject(admin),
      changes: { name: { from: factor.name, to: name } },
    });
  });
  return { ...factor, name };
}

/**
 * Removes one of the administrator's own factors; not the last one when MFA is required of them
 * (409 `last_mfa_factor`). With the last factor go the recovery codes.
 */
export async function removeOwnFactor(
  db: Db,
  admin: Admin,
  factorId: number,
  requiredEverywhere: boolean,
): Promise<void> {
  const factor = await findFactor(db, admin.id, factorId);
  if (!factor || factor.confirmed_at === null) throw mfaFactorNotFound();
  const count = await countConfirmedFactors(db, admin.id);
  if (count === 1 && (await mfaRequiredFor(db, admin, requiredEverywhere))) throw lastMfaFactor();
  await db.transaction().execute(async (trx) => {
    await deleteFactor(trx, admin.id, factorId);
    if ((await countConfirmedFactors(trx, admin.id)) === 0) await deleteRecoveryCodes(trx, admin.id);
    await recordAudit(trx, {
      accountId: admin.account_id,
      action: 'mfa.removed',
      object: subject(admin),
      changes: { factor: { from: `${factor.kind}: ${factor.name}`, to: null } },
    });
  });
}

/** Ten new recovery codes (shown once); the old ones stop working. Needs a factor. */
export async function regenerateRecoveryCodes(db: Db, admin: Admin): Promise<string[]> {
  if (!(await hasSecondFactor(db, admin.id))) throw mfaEnrolmentRequired();
  const codes = newRecoveryCodes();
  await db.transaction().execute(async (trx) => {
    await replaceRecoveryCodes(trx, admin.id, codes.map(hashRecoveryCode), Date.now());
    await recordAudit(trx, {
      accountId: admin.account_id,
      action: 'mfa.recovery_codes_regenerated',
      object: subject(admin),
      changes: { recovery_codes: { changed: true } },
    });
  });
  return codes;
}

/** What a reset removed: confirmed factors by kind, unused recovery codes, sessions ended. */
export interface FactorReset {
  totp: number;
  passkeys: number;
  recoveryCodes: number;
  sessionsEnded: number;
}

/**
 * An owner (or an operator at the CLI) resets an administrator's second factors (a lost phone
 * or key): every factor and recovery code goes, and so do their sessions; they enrol again at
 * next sign-in if MFA is required of them. `accountId` null: an operator, in the service's chain.
 */
export async function resetFactors(db: Db, accountId: number | null, target: Admin): Promise<FactorReset> {
  return db.transaction().execute(async (trx) => {
    const before = await resetInventoryOf(trx, target.id);
    const removed = await deleteAllFactors(trx, target.id);
    await deleteSessionsOf(trx, target.id);
    await recordAudit(trx, {
      accountId,
      action: 'mfa.reset',
      object: subject(target),
      changes: {
        factors: { from: removed, to: 0 },
        recovery_codes: { from: before.recoveryCodes, to: 0 },
        sessions_ended: { from: before.sessions, to: 0 },
      },
    });
    return {
      totp: before.totp,
      passkeys: before.passkeys,
      recoveryCodes: before.recoveryCodes,
      sessionsEnded: before.sessions,
    };
  });
}

/**
 * Whose factors an operator resets at the CLI: the administrator or operator with this address;
 * with `accountId`, only an administrator of that account (404 `admin_not_found` otherwise).
 */
export async function adminForOperatorReset(
  db: Db,
  email: string,
  accountId: number | undefined,
): Promise<Admin> {
  const admin = await adminByEmailOperatorWide(db, email);
  if (accountId !== undefined && admin.account_id !== accountId) throw new AppError('admin_not_found');
  return admin;
}

/** Whether every administrator of the account must have a second factor (owner only, audited). */
export async function setMfaRequirement(db: Db, accountId: number, required: unknown): Promise<boolean> {
  const settings = await db
    .transaction()
    .execute((trx) => changeSecuritySettings(trx, accountId, { require_mfa: required }));
  return settings.require_mfa;
}

/** The account's requirement, for its settings page. */
export async function mfaRequirementOf(db: Db, accountId: number): Promise<boolean> {
  return (await securitySettingsOf(db, accountId)).require_mfa;
}

export type SecondStepMethod = 'totp' | 'passkey' | 'recovery_code';

/** Which second steps the administrator can take: the kinds of factor they have, and recovery codes left. */
export async function secondStepMethodsOf(db: Db, adminId: number): Promise<SecondStepMethod[]> {
  const kinds = new Set((await confirmedFactorsOf(db, adminId)).map((f) => f.kind));
  const methods: SecondStepMethod[] = [];
  if (kinds.has('totp')) methods.push('totp');
  if (kinds.has('passkey')) methods.push('passkey');
  if ((await countUnusedRecoveryCodes(db, adminId)) > 0) methods.push('recovery_code');
  return methods;
}

/** An owner's view: the account's requirement, the operator's, and how many factors each administrator has. */
export async function accountMfaOverview(db: Db, accountId: number, requiredEverywhere: boolean) {
  const counts = await factorCountsOfAccount(db, accountId);
  const admins = await adminsOfAccount(db, accountId);
  return {
    require_mfa: await mfaRequirementOf(db, accountId),
    required_by_operator: requiredEverywhere,
    administrators: admins.map((a) => ({
      id: Number(a.id),
      email: a.email,
      name: a.name,
      factors: counts.get(Number(a.id)) ?? 0,
    })),
  };
}

/** An administrator of this account (404 `admin_not_found` otherwise), for an owner's reset. */
export async function accountAdminForReset(db: Db, accountId: number, adminId: number): Promise<Admin> {
  const admin = (await adminsOfAccount(db, accountId)).find((a) => Number(a.id) === adminId);
  if (!admin) throw new AppError('admin_not_found');
  return admin;
}
