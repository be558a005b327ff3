import type { FastifyReply } from 'fastify';
import { presentUser } from '../admins/admins.presenter.js';
import type { SessionLifetime, SignedInSession } from './sessions.service.js';

export const SESSION_COOKIE = 'vigil_session';
export const CSRF_COOKIE = 'vigil_csrf';
export const ADMIN_PATH = '/admin';

/** HttpOnly, SameSite=Lax (a link from an email still opens signed in), Secure when the request came over TLS. */
export function setSessionCookie(reply: FastifyReply, token: string, maxMs: number): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: ADMIN_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: 'auto',
    maxAge: Math.floor(maxMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: ADMIN_PATH, httpOnly: true, sameSite: 'lax', secure: 'auto' });
}

/** What CSRF tokens are bound to before sign-in (the library refuses an empty value). */
export const NO_SESSION = 'signed-out';

/** A CSRF token bound to the session (or to "no session" before sign-in). */
export function csrfTokenFor(reply: FastifyReply, sessionIdHash: string | null): string {
  return reply.generateCsrf({ userInfo: sessionIdHash ?? NO_SESSION });
}

/** The answer to a sign-in, by password or link: the session cookie, the user and the session's CSRF token. */
export function sendSignedIn(reply: FastifyReply, signedIn: SignedInSession, lifetime: SessionLifetime) {
  setSessionCookie(reply, signedIn.token, lifetime.maxMs);
  return {
    user: presentUser(signedIn.admin),
    csrf_token: csrfTokenFor(reply, signedIn.idHash),
    mfa_pending: signedIn.mfaPending,
  };
}
