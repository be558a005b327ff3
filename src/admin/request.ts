import type { Admin } from '../modules/admins/admins.service.js';

/** The administrator a request acts as, and (inside an account's routes) the account. */
export interface AdminContext {
  user: Admin;
  /** Set for routes under `/admin/api/accounts/:accountId`: checked, the account exists and the user may act in it. */
  accountId: number;
}

export interface AdminSession {
  idHash: string;
  admin: Admin;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, or null. Only under /admin/api. */
    adminSession: AdminSession | null;
    admin: AdminContext;
  }
  interface FastifyContextConfig {
    /** Admin API routes that need no session (sign-in, invitation links). */
    adminPublic?: boolean;
    /** Admin API routes for operators only (403 for account administrators). */
    operatorOnly?: boolean;
  }
}
