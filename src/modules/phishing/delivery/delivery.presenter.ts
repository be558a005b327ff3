import { iso, isoOrNull } from '../../../core/time.js';
import {
  CLASSIFICATION_REASONS,
  type ClassificationReason,
} from '../simulation/simulation.classify.model.js';
import { TEST_WATCH_MS, testVerdict } from './delivery.model.js';
import type { TestHitRow } from './delivery.repository.js';
import type { TestSendView } from './delivery.service.js';

function presentHit(h: TestHitRow) {
  return {
    at: iso(h.occurred_at),
    kind: h.kind === 'open' ? ('image' as const) : ('link' as const),
    method: h.method,
    classification: h.classification,
    reason: h.reason,
    reason_text: CLASSIFICATION_REASONS[h.reason as ClassificationReason] ?? h.reason,
    detail: h.detail,
    client_address: h.client_address,
    user_agent: h.user_agent,
  };
}

export function presentTestSend(s: TestSendView, now = Date.now()) {
  const human = s.hit_list.filter((h) => h.classification === 'human').length;
  return {
    id: s.id,
    email: s.email,
    employee_id: s.employee_id,
    template_key: s.template_key,
    template_name: s.template_name,
    status: (s.status === 'sent' || s.status === 'failed' ? s.status : 'queued') as
      | 'queued'
      | 'sent'
      | 'failed',
    created_at: iso(s.created_at),
    delivered_at: isoOrNull(s.delivered_at),
    watch_until: iso(s.created_at + TEST_WATCH_MS),
    verdict: testVerdict(s, s.hit_list, now),
    human_hits: human,
    automated_hits: s.hit_list.length - human,
    hits: s.hit_list.map(presentHit),
  };
}
