import type { SenderPolicy } from '../settings/settings.sender.model.js';
import type { PhishingSettings } from '../settings/settings.service.js';
import { SIMULATION_HEADER } from '../simulation/simulation.links.model.js';
import type { PhishingTemplateSummary } from './templates.list.service.js';
import type { PhishingTemplateView } from './templates.lookup.service.js';
import type { TemplatePreview } from './templates.preview.service.js';

/** Phishing templates and settings → the admin API's shapes. */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentTemplateSummary(t: PhishingTemplateSummary) {
  return { ...t, created_at: iso(t.created_at), updated_at: iso(t.updated_at) };
}

export function presentTemplate(t: PhishingTemplateView) {
  return {
    key: t.key,
    source: t.source,
    summary: t.summary,
    ...t.content,
    red_flags: t.content.red_flags.map((f) => ({ text: f.text, part: f.part, quote: f.quote })),
    cloned_from: t.cloned_from,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

export function presentPreview(p: TemplatePreview) {
  return p;
}

export function presentSettings(s: PhishingSettings, policy: SenderPolicy) {
  return {
    scanner_networks: s.scanner_networks,
    sender_name: s.sender_name,
    sender_address: s.sender_address,
    sender_domain: s.sender_domain,
    default_sender_domain: policy.defaultDomain,
    simulation_header: s.simulation_header ?? SIMULATION_HEADER,
    simulation_header_is_default: s.simulation_header === null,
    local_sender_allowed: policy.allowLocal,
    updated_at: iso(s.updated_at),
  };
}
