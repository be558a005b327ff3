import { createHash } from 'node:crypto';
import Bowser from 'bowser';
import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import type { Admin, AdminAccountId } from '../admins/admins.service.js';
import { deleteSessionOfAdmin, listSessionsOfAdmin, type SessionListRow } from './sessions.repository.js';

/**
 * The signed-in sessions of an administrator, as the sessions page shows them: where from,
 * which browser, how they signed in, when first and last used. A session is named by a public
 * id derived from its id hash, so no page, log or URL carries what the cookie proves.
 */
export interface DeviceSession {
  id: string;
  device: string;
  address: string | null;
  method: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  current: boolean;
}

/** The public name of a session: not its token, nor the hash the cookie is looked up by. */
export function publicSessionId(idHash: string): string {
  return createHash('sha256').update(`vigil session\n${idHash}`).digest('hex').slice(0, 24);
}

/** "Chrome 156 on Linux" from a (bounded) User-Agent; "Unknown browser" without one. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const system = [parsed.os.name, parsed.os.versionName].filter(Boolean).join(' ');
  if (!browser && !system) return 'Unknown browser';
  return system ? `${browser || 'Unknown browser'} on ${system}` : browser;
}

function present(row: SessionListRow, currentIdHash: string | null): DeviceSession {
  return {
    id: publicSessionId(row.id_hash),
    device: describeDevice(row.user_agent),
    address: row.address,
    method: row.method,
    created_at: Number(row.created_at),
    last_seen_at: Number(row.last_seen_at),
    expires_at: Number(row.expires_at),
    current: row.id_hash === currentIdHash,
  };
}

/** The live sessions of an administrator of this account (null: an operator): the current one first, then by last use. */
export async function sessionsOfAdmin(
  db: Db,
  accountId: AdminAccountId,
  adminId: number,
  currentIdHash: string | null,
): Promise<DeviceSession[]> {
  const now = Date.now();
  const rows = await listSessionsOfAdmin(db, accountId, adminId);
  const live = rows.filter((row) => Number(row.expires_at) > now).map((row) => present(row, currentIdHash));
  return [...live.filter((s) => s.current), ...live.filter((s) => !s.current)];
}

/**
 * Ends one session (by its public id) or all sessions of an administrator of this account, and
 * records it. `by` names whose sessions they are in the record when someone else ends them.
 */
export async function endSessionsOfAdmin(
  db: Db,
  props: { accountId: AdminAccountId; admin: Pick<Admin, 'id' | 'email'>; sessionId?: string; own: boolean },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { accountId, admin } = props;
    const rows = await listSessionsOfAdmin(trx, accountId, admin.id);
    const chosen =
      props.sessionId === undefined
        ? rows
        : rows.filter((r) => publicSessionId(r.id_hash) === props.sessionId);
    if (props.sessionId !== undefined && chosen.length === 0) throw new AppError('session_not_found');
    let ended = 0;
    for (const row of chosen) {
      if (await deleteSessionOfAdmin(trx, accountId, admin.id, row.id_hash)) ended += 1;
    }
    if (ended > 0) {
      await recordAudit(trx, {
        accountId,
        action: props.own ? 'session.ended' : 'admin.sessions_ended',
        object: props.sessionId
          ? { type: 'session', id: props.sessionId, label: admin.email }
          : { type: 'admin', id: admin.id, label: admin.email },
        changes: { sessions: { from: ended, to: 0 } },
      });
    }
    return ended;
  });
}
