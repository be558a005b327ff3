import type { LearnerLinkOffer, PageBrand } from '../../training/index.js';
import { BRAND_BAR_STYLE, brandBar, html, SafeHtml } from '../../training/index.js';
import type { TeachableEmail } from '../templates/templates.landing.presenter.js';

/**
 * The teachable moment (docs/phishing-plan.md, "Area C"): what a person sees after a click or a
 * submit, and what anyone sees for a link that is not (or no longer) a simulation's. Our own
 * markup only: the email is the text copy `renderTeachableEmail` escaped and marked, nothing of
 * the account's markup. No script; styles inline.
 */

/** Sent with the teachable and generic pages (Vigil's own markup: inline styles, nothing loaded). */
export const TEACHABLE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'content-type': 'text/html; charset=utf-8',
};

const withFormAction = new Map<string, Readonly<Record<string, string>>>();

/**
 * The teachable page's headers: its one form ("Email me a new link") may post to the learner
 * pages' origin (the origin of `learnerBase`, PUBLIC_URL), and nowhere else.
 */
export function teachablePageHeaders(learnerBase: string): Readonly<Record<string, string>> {
  let headers = withFormAction.get(learnerBase);
  if (!headers) {
    const origin = new URL(learnerBase).origin;
    const csp = TEACHABLE_PAGE_HEADERS['content-security-policy']!.replace(
      "form-action 'none'",
      `form-action ${origin}`,
    );
    headers = { ...TEACHABLE_PAGE_HEADERS, 'content-security-policy': csp };
    if (withFormAction.size < 16) withFormAction.set(learnerBase, headers);
  }
  return headers;
}

const STYLE = new SafeHtml(`
:root{--bg:#f5f6f8;--surface:#fff;--text:#1b2430;--muted:#4a5565;--line:#dfe3e8;--accent:#0f5e9c;
--accent-soft:#eaf2fa;--flag:#fff1a8;--flag-line:#b58a00;--ok:#166534;--ok-soft:#ecf8f0;color-scheme:light}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);overflow-wrap:anywhere;font:1.0625rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.top{background:var(--surface);border-bottom:1px solid var(--line)}
.top .wrap{display:flex;align-items:center;gap:.5rem;padding-top:.75rem;padding-bottom:.75rem;font-weight:600}
.top svg{flex:none;color:var(--accent)}
.wrap{max-width:46rem;margin:0 auto;padding-left:1rem;padding-right:1rem}
main.wrap{padding-top:1.5rem;padding-bottom:3rem}
h1{font-size:1.625rem;line-height:1.25;margin:.25rem 0 .75rem;letter-spacing:-.01em}
h2{font-size:1.25rem;line-height:1.3;margin:2rem 0 .75rem}
p{margin:0 0 1rem}
.lead{font-size:1.125rem}
.muted{color:var(--muted)}
.notice{border-radius:12px;padding:1rem 1.25rem;margin:0 0 1.25rem;border:1px solid #b7d3ec;background:var(--accent-soft)}
.notice.ok{background:var(--ok-soft);border-color:#b7e0c4}
.notice p:last-child{margin-bottom:0}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:3rem;padding:.75rem 1.5rem;border-radius:10px;background:var(--ok);color:#fff;font-weight:600;text-decoration:none}
.button:hover,.button:focus-visible{background:#0f4d27;color:#fff}
@media (max-width:30rem){.button{width:100%}}
.email{background:var(--surface);border:1px solid var(--line);border-radius:12px;overflow:hidden;margin:0 0 1rem}
${BRAND_BAR_STYLE}
.email dl{margin:0;padding:1rem 1.25rem;border-bottom:1px solid var(--line);display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem}
.email dt{color:var(--muted);font-weight:600}
.email dd{margin:0}
.email .body{padding:1rem 1.25rem;white-space:pre-wrap;font-size:1rem}
mark{background:var(--flag);border-bottom:2px solid var(--flag-line);padding:0 .1em;border-radius:2px}
mark::after{content:attr(data-flag);font-size:.7rem;font-weight:700;vertical-align:super;margin-left:.15em;color:var(--flag-line)}
.flags{padding-left:1.5rem;margin:0 0 1rem}
.flags li{margin:.5rem 0}
.flags .num{display:inline-block;min-width:1.5rem;font-weight:700;color:var(--flag-line)}
`);

const SHIELD = html`<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm-1 14-4-4 1.4-1.4L11 13.2l4.6-4.6L17 10l-6 6Z"/></svg>`;

function page(title: string, body: SafeHtml, brand?: PageBrand): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top"><div class="wrap">${brand ? brandBar(brand, 'Security awareness') : html`${SHIELD}<span>Security awareness</span>`}</div></header>
<main id="main" class="wrap">
${body}
</main>
</body>
</html>
`.value;
}

export interface TeachableView {
  email: TeachableEmail;
  /** The organisation whose security team ran the simulation, as its employees know it. */
  brand: PageBrand;
  /**
   * Whether a remedial course was assigned to the person (or is about to be, once their click
   * settled), where its invitation goes, and what of their learner link the page may offer: the
   * link they already hold while it is valid, else "Email me a new link" for it.
   */
  training: { assigned: boolean; coming?: boolean; email: string | null; offer?: LearnerLinkOffer };
}

/** The notice of the remedial course: assigned (with the person's link, or how to get it) or coming. */
function trainingNotice(training: TeachableView['training']): SafeHtml | string {
  const to = training.email;
  if (!training.assigned) {
    if (!training.coming) return '';
    return html`<div class="notice ok"><h2 style="margin-top:0;font-size:1.125rem">A short course for you</h2><p style="margin-bottom:0">A short course about spotting phishing is being assigned to you.${
      to
        ? html` An invitation with your personal link will be sent to <strong>${to}</strong> in a few minutes.`
        : ''
    }</p></div>`;
  }
  const offer = training.offer ?? { state: 'none' };
  const sent = to
    ? offer.state === 'on-its-way'
      ? html` An invitation with your personal link is on its way to <strong>${to}</strong>.`
      : html` An invitation with your personal link was sent to <strong>${to}</strong>.`
    : '';
  const action =
    offer.state === 'valid'
      ? html`<p style="margin-bottom:0"><a class="button" href="${offer.url}">Start the course now</a></p>`
      : offer.state === 'expired'
        ? html`<p>Your personal link has expired. We can email you a new one.</p><form method="post" action="${offer.newLinkAction}" style="margin:0"><button class="button" type="submit" style="border:0;font:inherit;cursor:pointer">Email me a new link</button></form>`
        : '';
  return html`<div class="notice ok"><h2 style="margin-top:0;font-size:1.125rem">A short course for you</h2><p${
    action === '' ? html` style="margin-bottom:0"` : ''
  }>A short course about spotting phishing was assigned to you.${sent}</p>${action}</div>`;
}

/** The teachable page: this was a simulation, the email with its red flags marked, the course assigned. */
export function teachablePage(view: TeachableView): string {
  const { email } = view;
  const flags = email.flags.map(
    (f) =>
      html`<li><span class="num">${f.number}</span> ${f.text}${f.marked ? '' : html` <span class="muted">(${partName(f.part)})</span>`}</li>`,
  );
  const training = trainingNotice(view.training);
  return page(
    'This was a phishing simulation',
    html`<h1>This was a phishing simulation</h1>
<div class="notice"><p class="lead">Don’t worry: this email was a simulation sent by the security team of ${view.brand.displayName}, to help everyone learn to recognise phishing. Nothing you typed was kept.</p></div>
${training}
<h2>The email you received</h2>
<p class="muted">The highlighted parts are what should have raised suspicion.</p>
<div class="email">
<dl><dt>From</dt><dd>${email.sender_html ? new SafeHtml(email.sender_html) : ''}</dd><dt>Subject</dt><dd>${new SafeHtml(email.subject_html)}</dd></dl>
<div class="body">${new SafeHtml(email.body_html)}</div>
</div>
<h2>What to look out for</h2>
<ol class="flags" style="list-style:none;padding-left:0">${flags}</ol>
<h2>Next time</h2>
<p>Before you click a link or type a password, check who really sent the message and where the link leads. When in doubt, report the email to your security team with your mail program’s report button.</p>`,
    view.brand,
  );
}

function partName(part: string): string {
  return part === 'link'
    ? 'the link'
    : part === 'sender'
      ? 'the sender'
      : part === 'subject'
        ? 'the subject'
        : 'the message';
}

/**
 * What any link that is not a live simulation's shows: a wrong, malformed or unknown token. The
 * same words for all of them, and nothing about any account.
 */
export function genericTeachablePage(): string {
  return page(
    'Security awareness',
    html`<h1>This link is not active</h1>
<div class="notice"><p class="lead">If it came in an email, that email may have been a phishing simulation run by a security team. No information was recorded from this page.</p></div>
<h2>Next time</h2>
<p>Before you click a link or type a password, check who really sent the message and where the link leads. When in doubt, report the email to your security team.</p>`,
  );
}

/** The page a test send's link shows (Phishing settings' test of delivery): nothing of the account. */
export function testSendPage(): string {
  return page(
    'Security awareness',
    html`<h1>This was a test message</h1>
<div class="notice"><p class="lead">Your security team sent this message to check that their phishing simulations reach people. There is nothing to do: you can close this page and delete the message.</p></div>
<h2>Next time</h2>
<p>Before you click a link or type a password, check who really sent the message and where the link leads. When in doubt, report the email to your security team.</p>`,
  );
}
