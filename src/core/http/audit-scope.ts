import type { FastifyInstance } from 'fastify';
import { type AuditActor, withAuditScope } from '../audit/audit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the audit log names for this request's changes: set by the hook that authenticated it. */
    auditActor: AuditActor | null;
  }
}

const ANONYMOUS: AuditActor = { kind: 'anonymous', id: null, label: 'anonymous' };

/**
 * Opens the audit scope of every request just before its handler (after authentication, body
 * parsing and validation): whatever the handler records names the request's actor, address
 * and id. Opened this late because Node's async context does not survive the body's parsing.
 */
export function registerAuditScope(app: FastifyInstance): void {
  app.decorateRequest('auditActor', null);
  app.addHook('preHandler', (request, _reply, done) => {
    withAuditScope(
      { actor: request.auditActor ?? ANONYMOUS, address: request.ip, requestId: request.id },
      done,
    );
  });
}
