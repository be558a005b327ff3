import { createHash } from 'node:crypto';
import { escape as escapeHtml } from 'html-escaper';
import { SECURITY_HEADERS } from '../../../core/http/headers.js';
import { linkTo } from '../../../core/http/links.js';

/**
 * The add-in's task pane: one small page, its script (addin.js) and Microsoft's Office.js; no
 * inline script. The page reads its report key from its own address and posts the message to
 * the Customer API at PUBLIC_URL, whose address it carries in `data-endpoint`.
 */

/** Microsoft's Office.js (its CDN is the only supported place: the store requires it). */
export const OFFICE_JS_URL = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
const OFFICE_JS_ORIGIN = 'https://appsforoffice.microsoft.com';

/**
 * Where Outlook frames the task pane: Outlook on the web and the new Outlook for Windows (the
 * desktop clients show it in a window of their own, which frame-ancestors does not concern).
 */
const OUTLOOK_FRAMES = [
  'https://outlook.office.com',
  'https://outlook.office365.com',
  'https://outlook.cloud.microsoft',
  'https://outlook.live.com',
  'https://*.outlook.com',
  'https://*.office.com',
  'https://*.office365.com',
  'https://*.officeapps.live.com',
  'https://*.cloud.microsoft',
];

const STYLE = `
:root { color-scheme: light dark; font-family: "Segoe UI", system-ui, sans-serif; }
body { margin: 0; padding: 16px; line-height: 1.45; }
h1 { font-size: 1.1rem; margin: 0 0 12px; }
p { margin: 0 0 12px; }
#status[data-outcome="simulation"], #status[data-outcome="real"] { border-left: 4px solid #2b8a3e; padding-left: 10px; }
#alert { border-left: 4px solid #c92a2a; padding-left: 10px; }
button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid currentColor; background: none; cursor: pointer; }
button:focus-visible { outline: 2px solid #4c6ef5; outline-offset: 2px; }
[hidden] { display: none !important; }
`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** The Customer API's report address the pane posts to. */
export function reportEndpoint(base: string, apiPrefix: string): string {
  return linkTo(base, `${apiPrefix}/customer/reports/`);
}

export function taskpanePage(endpoint: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Report phishing</title>
<style>${STYLE}</style>
<script src="${OFFICE_JS_URL}"></script>
<script src="addin.js" defer></script>
</head>
<body>
<main id="vigil-report" data-endpoint="${escapeHtml(endpoint)}">
<h1>Report phishing</h1>
<p id="status" role="status" aria-live="polite">Reporting this message to your security team…</p>
<p id="alert" role="alert" hidden></p>
<p><button type="button" id="retry" hidden>Try again</button></p>
</main>
</body>
</html>
`;
}

/**
 * The page's headers: Office.js from Microsoft's CDN and this server's own script; connections
 * to PUBLIC_URL only; framed by Outlook only. Never cached or passed on as a referrer (its
 * address holds the key). The route removes X-Frame-Options: frame-ancestors says who may frame
 * the page, and SAMEORIGIN would refuse Outlook.
 */
export function taskpaneHeaders(base: string): Record<string, string> {
  const self = new URL(base).origin;
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${OFFICE_JS_ORIGIN}`,
    `connect-src ${self}`,
    `style-src ${STYLE_HASH}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors 'self' ${OUTLOOK_FRAMES.join(' ')}`,
  ].join('; ');
  const { 'x-frame-options': _framedByOutlook, ...security } = SECURITY_HEADERS;
  return {
    ...security,
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex, nofollow',
  };
}
