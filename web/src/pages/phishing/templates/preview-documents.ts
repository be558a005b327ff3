// The documents the preview frames show. Every one is shown in <iframe sandbox=""> (no scripts,
// no forms, no same-origin access, no popups) through srcdoc: never in the app's own DOM.
import { previewDocument } from '../../outbox/preview';
import type { TemplatePreview } from './template-types';

/** An email's HTML: links open nowhere (a new tab the sandbox does not allow). */
export function emailDocument(html: string): string {
  return previewDocument(html);
}

/** The landing page as served (already sanitised by the server). */
export function landingDocument(html: string): string {
  return previewDocument(html);
}

const TEACHABLE_STYLE = `
body { font: 14px/1.5 system-ui, sans-serif; color: #1f2328; margin: 16px; }
.head { margin: 0 0 4px; }
.head b { display: inline-block; min-width: 4.5em; color: #57606a; font-weight: 600; }
.body { white-space: pre-wrap; border-top: 1px solid #d0d7de; margin-top: 12px; padding-top: 12px; overflow-wrap: anywhere; }
mark { background: #ffe58f; border-radius: 3px; padding: 0 2px; }
mark::after { content: attr(data-flag); font-size: 10px; font-weight: 700; color: #fff; background: #c2410c;
  border-radius: 8px; padding: 0 5px; margin-left: 3px; vertical-align: super; }
`;

/**
 * The teachable page's copy: text the server escaped, each red flag's quote in
 * `<mark data-flag="n">`, numbered as in the list beside it.
 */
export function teachableDocument(t: NonNullable<TemplatePreview['teachable']>): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${TEACHABLE_STYLE}</style></head><body>
<p class="head"><b>From</b> ${t.sender_html}</p>
<p class="head"><b>Subject</b> ${t.subject_html}</p>
<div class="body">${t.body_html}</div></body></html>`;
}
