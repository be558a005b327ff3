import type { ActorKind } from '../../../core/audit/audit.js';
import { iso } from '../../../core/time.js';
import type { AuditRow } from './audit.service.js';

/** An audit row as both APIs show it: who (and through what), when, from where, what, on which object, the changes. */
export function presentAuditEntry(row: AuditRow) {
  return {
    id: Number(row.id),
    seq: Number(row.seq),
    at: iso(Number(row.at)),
    actor: { kind: row.actor_kind as ActorKind, id: row.actor_id, label: row.actor_label },
    address: row.address,
    request_id: row.request_id,
    action: row.action,
    object: { type: row.object_type, id: row.object_id, label: row.object_label },
    changes: row.changes === null ? null : (JSON.parse(row.changes) as Record<string, unknown>),
  };
}
