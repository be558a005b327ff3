import { hashToken, isWellFormedToken, newToken } from '../../auth/tokens.js';
import type { Db } from '../../db/database.js';
import type { Admin } from '../admins/admins.service.js';
import {
  deleteOtherSessions,
  deleteSession,
  deleteStaleSessions,
  findSessionWithAdmin,
  insertSession,
  touchSession,
} from './sessions.repository.js';

/** How long a session lives: `idleMs` without a request, `maxMs` at most. */
export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

// "Last seen" is written at most this often, so browsing does not write on every request.
const TOUCH_EVERY_MS = 60_000;

export interface ActiveSession {
  /** SHA-256 of the cookie's token: identifies the session without being it. */
  idHash: string;
  admin: Admin;
}

/** Starts a new session (a new id at every sign-in); returns the token for the cookie. */
export async function startSession(
  db: Db,
  adminId: number,
  lifetime: SessionLifetime,
): Promise<{ token: string; idHash: string }> {
  const { token, hash } = newToken();
  const now = Date.now();
  await insertSession(db, {
    id_hash: hash,
    user_id: adminId,
    created_at: now,
    last_seen_at: now,
    expires_at: now + lifetime.maxMs,
  });
  return { token, idHash: hash };
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
  if (row.expires_at <= now || row.last_seen_at + lifetime.idleMs <= now) {
    await deleteSession(db, idHash);
    return null;
  }
  if (now - row.last_seen_at >= TOUCH_EVERY_MS) await touchSession(db, idHash, now);
  const { last_seen_at: _seen, expires_at: _end, ...admin } = row;
  return { idHash, admin };
}

export async function endSession(db: Db, idHash: string): Promise<void> {
  await deleteSession(db, idHash);
}

export function pruneSessions(db: Db, lifetime: SessionLifetime): Promise<number> {
  return deleteStaleSessions(db, Date.now(), lifetime.idleMs);
}

/** After a password change: signed out everywhere else, still signed in here. */
export function endOtherSessions(db: Db, session: ActiveSession): Promise<void> {
  return deleteOtherSessions(db, session.admin.id, session.idHash);
}
