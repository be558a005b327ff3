import type { Generated } from 'kysely';

/** The tables of accounts, API keys, administrators, sessions, invitations. */

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
  updated_at: number;
  /** Moves on with every change to what the account's list of groups shows (migration 0004). */
  groups_revision: Generated<number>;
  /** The name employees see in mail and on pages (migration 0017); null: `name`. */
  display_name: string | null;
}

/** An account's logo (migration 0017): shown to employees in mail and on learner and teachable pages. */
export interface AccountLogosTable {
  account_id: number;
  content_type: 'image/png' | 'image/jpeg' | 'image/webp';
  /** The bytes, base64. */
  data: string;
  byte_size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  updated_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** The first characters of the key (`vgl_` + 8), shown in lists to recognise a key. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  secret_hash: string;
  /** JSON array of permission strings such as "groups:write". */
  permissions: string;
  /** Requests per minute. */
  rate_limit: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

export type AdminRole = 'operator' | 'account_admin';

export interface AdminUsersTable {
  id: Generated<number>;
  email: string;
  /** Lower-cased; unique across the service (one person, one sign-in). */
  email_normalized: string;
  name: Generated<string>;
  /** scrypt, in the self-describing form of `auth/password.ts`. */
  password_hash: string;
  role: AdminRole;
  /** The account of an account administrator; null for operators. */
  account_id: number | null;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
  /** May read reported mail and give verdicts (migration 0021): 1 or 0. */
  can_triage: Generated<number>;
  /** An account administrator's built-in role (migration 0023, `access/roles`); null for operators. */
  account_role: AccountRole | null;
  /** When the administrator was disabled: no sign-in, no session (migration 0023). */
  disabled_at: number | null;
  /** An owner who may sign in with a password when the account is SSO only (1 or 0; migration 0023). */
  break_glass: Generated<number>;
}

/** The built-in roles of an account's administrators (their permissions: `access/roles/roles.model.ts`). */
export type AccountRole = 'owner' | 'administrator' | 'campaign_manager' | 'triage_analyst' | 'auditor';

/** The groups an administrator's role is limited to (migration 0023); none: every group. */
export interface AdminRoleGroupsTable {
  account_id: number;
  admin_id: number;
  group_id: number;
}

/** An account's sign-in and audit settings (migration 0023); no row: the defaults. */
export interface AccountSecurityTable {
  account_id: number;
  /** Every administrator must have a second factor (1 or 0). */
  require_mfa: Generated<number>;
  /** Password sign-in refused but for break-glass owners (1 or 0). */
  sso_only: Generated<number>;
  /** The role of an administrator made at first SSO sign-in when no group claim maps one. */
  default_role: Generated<AccountRole>;
  /** Days the audit log is kept; null: 400. */
  audit_retention_days: number | null;
  updated_at: number;
}

export interface AdminSessionsTable {
  /** SHA-256 of the session token in the cookie; the token itself is never stored. */
  id_hash: string;
  user_id: number;
  created_at: number;
  /** Written at most once a minute, for the idle timeout. */
  last_seen_at: number;
  /** Absolute end of the session. */
  expires_at: number;
  /** Where it signed in from, which browser, and how: password, link, oidc, saml (migration 0023). */
  address: string | null;
  user_agent: string | null;
  method: string | null;
  /** Null: a full session; 'verify': the second step is still to do; 'enrol': MFA is required and no factor exists yet (migration 0026). */
  mfa_pending: MfaPending | null;
}

export type MfaPending = 'verify' | 'enrol';
export type MfaFactorKind = 'totp' | 'passkey';

/** An administrator's second factor (migration 0026, `access/mfa`). */
export interface AdminMfaFactorsTable {
  id: Generated<number>;
  admin_id: number;
  /** The administrator's account; null for an operator. */
  account_id: number | null;
  kind: MfaFactorKind;
  name: string;
  /** TOTP: the seed, sealed by the secret box (never stored in the clear). */
  secret_sealed: string | null;
  /** TOTP: the last time step accepted; a code of that step or earlier is refused. */
  last_step: number | null;
  /** Passkey: the credential id, base64url. */
  credential_id: string | null;
  /** Passkey: the COSE public key, base64url. */
  public_key: string | null;
  /** Passkey: the authenticator's signature counter. */
  counter: number | null;
  /** Passkey: JSON array of transports. */
  transports: string | null;
  created_at: number;
  /** Null while a TOTP enrolment waits for its first code. */
  confirmed_at: number | null;
  last_used_at: number | null;
}

/** One-time recovery codes (migration 0026): SHA-256 of each, `used_at` once used. */
export interface AdminRecoveryCodesTable {
  admin_id: number;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** WebAuthn challenges (migration 0026): single use, short-lived, bound to a session. */
export interface AdminMfaChallengesTable {
  challenge: string;
  session_id_hash: string;
  admin_id: number;
  purpose: 'register' | 'authenticate';
  expires_at: number;
}

export type InvitationKind = 'setup' | 'invite';

export interface AdminInvitationsTable {
  id: Generated<number>;
  /** SHA-256 of the token in the link. */
  token_hash: string;
  /** `setup` makes the first operator; `invite` an account administrator of `account_id`. */
  kind: InvitationKind;
  email: string | null;
  account_id: number | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
  /** The role the invited administrator gets (migration 0024); null: owner (invitations made before). */
  account_role: AccountRole | null;
}

/** The groups an invited administrator's role is limited to (migration 0024); none: every group. */
export interface AdminInvitationGroupsTable {
  account_id: number;
  invitation_id: number;
  group_id: number;
}

export interface AccessTables {
  accounts: AccountsTable;
  account_logos: AccountLogosTable;
  api_keys: ApiKeysTable;
  admin_users: AdminUsersTable;
  admin_sessions: AdminSessionsTable;
  admin_invitations: AdminInvitationsTable;
  admin_role_groups: AdminRoleGroupsTable;
  admin_invitation_groups: AdminInvitationGroupsTable;
  account_security: AccountSecurityTable;
  admin_mfa_factors: AdminMfaFactorsTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  admin_mfa_challenges: AdminMfaChallengesTable;
  sso_connections: SsoConnectionsTable;
  sso_requests: SsoRequestsTable;
  sso_assertions: SsoAssertionsTable;
}

export type SsoProtocol = 'oidc' | 'saml';

/** An account's identity provider for single sign-on (migration 0027, `access/sso`); no row: none. */
export interface SsoConnectionsTable {
  account_id: number;
  protocol: SsoProtocol;
  /** Sign-in through it is open (1 or 0). */
  enabled: Generated<number>;
  /** OIDC: the issuer (discovery at `/.well-known/openid-configuration`). */
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** OIDC: the client secret, sealed by the secret box (never returned, never audited). */
  oidc_client_secret: string | null;
  /** OIDC: `acr_values` sent as they are (the IdP's own MFA policy); null: none. */
  oidc_acr_values: string | null;
  /** SAML: the IdP's entity id (the Issuer of its responses). */
  saml_idp_entity_id: string | null;
  /** SAML: where AuthnRequests go (HTTP-Redirect binding). */
  saml_idp_sso_url: string | null;
  /** SAML: JSON array of the IdP's signing certificates (base64 DER, as metadata holds them). */
  saml_idp_certs: string | null;
  /** JSON array of lower-case email domains whose people may sign in. */
  allowed_domains: string;
  /** The ID token claim or SAML attribute holding the person's groups; null: none read. */
  groups_claim: string | null;
  /** JSON array of `{ group, role }`: the first group the person is in names their role. */
  role_mapping: string;
  created_at: number;
  updated_at: number;
}

/** A sign-in under way (migration 0027): deleted when used or expired. */
export interface SsoRequestsTable {
  /** SHA-256 of the OIDC `state`, or of the SAML AuthnRequest ID. */
  id_hash: string;
  account_id: number;
  protocol: SsoProtocol;
  /** OIDC: SHA-256 of the token in the browser's binding cookie. */
  binding_hash: string | null;
  nonce: string | null;
  code_verifier: string | null;
  created_at: number;
  expires_at: number;
}

/** SAML assertions already used (migration 0027), until they expire: a replay is refused. */
export interface SsoAssertionsTable {
  account_id: number;
  assertion_id: string;
  expires_at: number;
}
