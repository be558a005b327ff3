import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { AdminUsersTable } from '../db/schema.js';
import { signInRequired } from '../errors.js';

/** An administrator as the rest of the code sees one: never the password hash. */
export type AdminIdentity = Omit<Selectable<AdminUsersTable>, 'password_hash'>;

export interface AdminSession {
  idHash: string;
  admin: AdminIdentity;
  /** Null: a full session. 'verify': the second step of sign-in is still to do; 'enrol': MFA is required and a first factor is to enrol. */
  mfaPending: 'verify' | 'enrol' | null;
}

/**
 * Who acts in which account, on the routes under `/admin/api/accounts/:accountId` only: their
 * scope's hook sets it once it has checked that the account exists and the user may act in it.
 */
export interface AccountContext {
  user: AdminIdentity;
  accountId: number;
  /**
   * The groups the user's role is limited to (`admin_role_groups`): they see only these groups,
   * their members and the campaigns that target none but them. Null: every group (operators,
   * and administrators whose role names no group).
   */
  groups: readonly number[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, or null. Only under /admin/api. */
    adminSession: AdminSession | null;
    /**
     * Only on account routes (`/admin/api/accounts/:accountId/…`; read it through `accountOf`);
     * null on every other route, which reads the signed-in user through `sessionOf`.
     */
    admin: AccountContext | null;
  }
  interface FastifyContextConfig {
    /** Admin API routes that need no session (sign-in, invitation links). */
    adminPublic?: boolean;
    /** Admin API routes for operators only (403 for account administrators). */
    operatorOnly?: boolean;
    /** Admin API routes that read reported mail or judge it: the triage permission (403 without it). */
    triage?: boolean;
    /**
     * The permission a route needs (`access/roles/roles.model.ts` lists them, e.g.
     * `directory:write`): 403 for a role without it. Every admin route declares one (refused at
     * boot otherwise); outside an account `public`, `signed-in` or `operator`.
     */
    adminPermission?: string;
    /**
     * The states of a session still waiting for MFA that may call this route ('verify': the
     * second step; 'enrol': enrolling a first factor). Every other route answers such a session
     * 401 `mfa_required`; a full session may call any route.
     */
    mfaPending?: readonly ('verify' | 'enrol')[];
    /**
     * Account routes that would make something outside every group (a new group, a new or
     * imported employee): refused to a role limited to groups (docs/roles.md).
     */
    everyGroup?: boolean;
    /**
     * `account`: the route acts on the whole account (reporting settings, report rules, phishing
     * settings…), so a role limited to groups gets 403 `scope_too_narrow` whatever its
     * permissions; routes whose permission is in ACCOUNT_WIDE_PERMISSIONS (roles.model.ts) act
     * on the whole account without saying so (docs/roles.md).
     */
    adminScope?: 'account';
  }
}

/** The session of a route that needs one (the admin plugin's hook refused the request without it). */
export function sessionOf(request: FastifyRequest): AdminSession {
  if (!request.adminSession) throw signInRequired();
  return request.adminSession;
}

/** Who acts in which account, on a route under `/admin/api/accounts/:accountId` (set by its scope's hook). */
export function accountOf(request: FastifyRequest): AccountContext {
  if (!request.admin) throw new Error('accountOf() used outside /admin/api/accounts/:accountId');
  return request.admin;
}
