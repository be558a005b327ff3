import type { PhishingSettings } from './phishing.settings.service.js';
import type { PhishingTemplateSummary } from './phishing.templates.list.js';
import type { PhishingTemplateView } from './phishing.templates.lookup.js';
import type { TemplatePreview } from './phishing.templates.preview.js';

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

export function presentSettings(s: PhishingSettings) {
  return { scanner_networks: s.scanner_networks, updated_at: iso(s.updated_at) };
}
