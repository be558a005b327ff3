import { createHash } from 'node:crypto';
import {
  ADDRESS_MAX,
  CONTENT_ATTACHMENTS_MAX,
  CONTENT_HEADER_VALUE_MAX,
  CONTENT_HEADERS_MAX,
  CONTENT_HTML_MAX,
  CONTENT_TEXT_MAX,
  CONTENT_URL_LENGTH_MAX,
  CONTENT_URLS_MAX,
  type ReportAttachment,
  type ReportContent,
  type ReportUrl,
  SUBJECT_MAX,
} from '../triage/triage.content.model.js';
import { linkCandidates } from './reports.links.model.js';

/**
 * The safe view of a reported message (triage.content.model.ts says what it is), made from a
 * parsed message in a reading thread, and the fingerprints that group identical reports.
 */

/** What contentOf needs of a parsed message: mailparser's ParsedMail, or a .msg read into this shape. */
export interface MailLike {
  headerLines?: ReadonlyArray<{ key: string; line: string }>;
  from?: { value: Array<{ address?: string; name?: string }> } | undefined;
  to?: { value: Array<{ address?: string; name?: string }> } | Array<{ value: Array<{ address?: string }> }>;
  subject?: string | undefined;
  date?: Date | undefined;
  messageId?: string | undefined;
  text?: string | undefined;
  html?: string | false | undefined;
  attachments: Array<{ filename?: string | undefined; contentType: string; size?: number; content: Buffer }>;
}

/** The safe view of a parsed message. Linear in its size; each part cut to its limit. */
export function contentOf(mail: MailLike): ReportContent {
  const truncated = new Set<ReportContent['truncated'][number]>();
  const headers: ReportContent['headers'] = [];
  for (const { line } of mail.headerLines ?? []) {
    if (headers.length >= CONTENT_HEADERS_MAX) {
      truncated.add('headers');
      break;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push({
      name: line.slice(0, Math.min(colon, 200)),
      value: clip(
        unfold(line.slice(colon + 1, colon + 1 + CONTENT_HEADER_VALUE_MAX * 2)),
        CONTENT_HEADER_VALUE_MAX,
      ),
    });
  }
  const sender = mail.from?.value[0];
  const html = typeof mail.html === 'string' ? mail.html : null;
  let text =
    typeof mail.text === 'string' && mail.text.trim() !== '' ? mail.text : html ? textOfHtml(html) : '';
  if (text.length > CONTENT_TEXT_MAX) {
    text = text.slice(0, CONTENT_TEXT_MAX);
    truncated.add('text');
  }
  const htmlKept = html !== null && html.length > CONTENT_HTML_MAX ? html.slice(0, CONTENT_HTML_MAX) : html;
  if (htmlKept !== html) truncated.add('html');
  const urls = new Map<string, ReportUrl>();
  const addUrls = (body: string, kind: 'html' | 'text') => {
    for (const candidate of linkCandidates(body, kind)) {
      if (urls.size >= CONTENT_URLS_MAX) {
        truncated.add('urls');
        return;
      }
      if (candidate.length > CONTENT_URL_LENGTH_MAX || urls.has(candidate)) continue;
      const host = hostOf(candidate);
      if (host !== null) urls.set(candidate, { url: candidate, host });
    }
  };
  if (html !== null) addUrls(html, 'html');
  if (typeof mail.text === 'string') addUrls(mail.text, 'text');
  const attachments: ReportAttachment[] = [];
  for (const attachment of mail.attachments) {
    if (attachments.length >= CONTENT_ATTACHMENTS_MAX) {
      truncated.add('attachments');
      break;
    }
    attachments.push({
      name: clip(attachment.filename ?? '', 255),
      content_type: clip(attachment.contentType.toLowerCase(), 255),
      size: attachment.size ?? attachment.content.length,
      sha256: createHash('sha256').update(attachment.content).digest('hex'),
    });
  }
  const toList = Array.isArray(mail.to) ? mail.to.flatMap((t) => t.value) : (mail.to?.value ?? []);
  return {
    from: {
      address: clip((sender?.address ?? '').toLowerCase(), ADDRESS_MAX),
      name: clip(sender?.name ?? '', ADDRESS_MAX),
    },
    to: toList
      .slice(0, 20)
      .map((t) => clip((t.address ?? '').toLowerCase(), ADDRESS_MAX))
      .filter(Boolean),
    subject: clip(mail.subject ?? '', SUBJECT_MAX),
    date: mail.date && Number.isFinite(mail.date.getTime()) ? mail.date.getTime() : null,
    message_id: clip(mail.messageId ?? '', ADDRESS_MAX),
    headers,
    text,
    html: htmlKept,
    urls: [...urls.values()],
    attachments,
    truncated: [...truncated],
  };
}

/**
 * What groups identical reports: the sender, subject and text (case and spacing aside), and,
 * apart, the set of URLs (a campaign's messages differ in greeting but link the same place).
 */
export function fingerprintsOf(content: ReportContent): { body: string; urls: string | null } {
  const normal = (value: string) => value.toLowerCase().replace(/\s+/g, ' ').trim();
  const body = sha256(`${content.from.address}\n${normal(content.subject)}\n${normal(content.text)}`);
  const urls =
    content.urls.length === 0 ? null : sha256([...content.urls.map((u) => u.url)].sort().join('\n'));
  return { body, urls };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}

function unfold(value: string): string {
  return value.replace(/\r?\n[ \t]+/g, ' ').trim();
}

/**
 * HTML to text for grouping and reading, without a DOM: drops style and script bodies and tags,
 * decodes the commonest entities, collapses blank runs. Linear: the blocks are cut with indexOf
 * passes, and no pattern can rescan (`[^<>]*` stops at the next bracket).
 */
export function textOfHtml(html: string): string {
  return withoutBlocks(html)
    .replace(/<br\s*\/?>|<\/(?:p|div|tr|li|h[1-6])\s*>/gi, '\n')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/gi, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n[ \n]+/g, '\n')
    .trim();
}

/** The HTML without its `<style>` and `<script>` elements (an unclosed one runs to the end). */
function withoutBlocks(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  // Each next opener is searched again only once passed, so the whole is one pass per kind.
  let style = lower.indexOf('<style');
  let script = lower.indexOf('<script');
  while (at < html.length) {
    if (style >= 0 && style < at) style = lower.indexOf('<style', at);
    if (script >= 0 && script < at) script = lower.indexOf('<script', at);
    const open = style < 0 ? script : script < 0 ? style : Math.min(style, script);
    if (open < 0) break;
    out += html.slice(at, open);
    const close = lower.indexOf(open === style ? '</style' : '</script', open);
    if (close < 0) return out;
    const end = lower.indexOf('>', close);
    at = end < 0 ? html.length : end + 1;
  }
  return out + html.slice(at);
}
