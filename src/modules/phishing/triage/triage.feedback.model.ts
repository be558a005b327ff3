import { escape as escapeHtml } from 'html-escaper';
import type { ReportVerdict } from '../../../core/db/schema/phishing.js';

/**
 * The feedback mail a reporter gets for a verdict: an account's own template for that verdict, or
 * the default below. A template is a subject and a plain-text body with `{{placeholders}}`
 * (first_name, subject, verdict, note, company); rendering is one linear pass, and every value is
 * escaped in the HTML part.
 */

export const VERDICTS: readonly ReportVerdict[] = ['malicious', 'spam', 'safe'];
export const FEEDBACK_SUBJECT_MAX = 200;
export const FEEDBACK_BODY_MAX = 5_000;
export const FEEDBACK_PLACEHOLDERS = ['first_name', 'subject', 'verdict', 'note', 'company'] as const;

export interface FeedbackTemplate {
  subject: string;
  body: string;
}

export const DEFAULT_FEEDBACK: Record<ReportVerdict, FeedbackTemplate> = {
  malicious: {
    subject: 'You reported a real attack: thank you',
    body: `Hello {{first_name}},

The message you reported, "{{subject}}", was a real phishing attack. Thanks to your report, the security team of {{company}} could act on it.

If you clicked a link in it or entered anything, tell your IT team now.

{{note}}`,
  },
  spam: {
    subject: 'You reported spam: thank you',
    body: `Hello {{first_name}},

The message you reported, "{{subject}}", was unwanted mail (spam), not a targeted attack. You may delete it.

Thank you for reporting: it helps the security team of {{company}}.

{{note}}`,
  },
  safe: {
    subject: 'The message you reported is safe',
    body: `Hello {{first_name}},

The message you reported, "{{subject}}", was checked and is safe. You may use it as usual.

Thank you for reporting: when in doubt, reporting is always right.

{{note}}`,
  },
};

const VERDICT_WORDS: Record<ReportVerdict, string> = {
  malicious: 'malicious',
  spam: 'spam',
  safe: 'safe',
};

export interface FeedbackValues {
  first_name: string;
  subject: string;
  verdict: ReportVerdict;
  note: string;
  company: string;
}

/** The mail of a template with these values: subject, text and HTML. */
export function renderFeedback(
  template: FeedbackTemplate,
  values: FeedbackValues,
): { subject: string; text: string; html: string } {
  const words: Record<string, string> = {
    first_name: values.first_name || 'there',
    subject: values.subject || '(no subject)',
    verdict: VERDICT_WORDS[values.verdict],
    note: values.note,
    company: values.company,
  };
  const fill = (source: string, encode: (v: string) => string) =>
    source.replace(/\{\{\s*([a-z_]{1,20})\s*\}\}/g, (whole, name: string) =>
      Object.hasOwn(words, name) ? encode(words[name] as string) : encode(whole),
    );
  const subject = fill(template.subject, (v) => v)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const text = fill(template.body, (v) => v).trim();
  return { subject, text, html: htmlOfText(text) };
}

/** A plain text as a simple HTML mail: its paragraphs, every character escaped. */
export function htmlOfText(text: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1a1b1e">${paragraphs}</body></html>`;
}

/** The placeholders a template uses that are no placeholder (a typo the form should show). */
export function unknownPlaceholders(source: string): string[] {
  const unknown = new Set<string>();
  for (const match of source.matchAll(/\{\{\s*([^{}]{0,40}?)\s*\}\}/g)) {
    const name = match[1] as string;
    if (!(FEEDBACK_PLACEHOLDERS as readonly string[]).includes(name)) unknown.add(name);
  }
  return [...unknown];
}
