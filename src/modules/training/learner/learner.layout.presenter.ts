import { html, SafeHtml } from './learner.html.presenter.js';

/**
 * The learner page's shell: one calm, readable column that starts from a phone screen, with
 * its styles inline (the Content-Security-Policy allows inline styles, not scripts, and the
 * pages need no script at all).
 */

/**
 * The rules of brandBar's markup, in the learner pages' stylesheet and in every other page that
 * shows the bar (the teachable page): on a phone the name wraps at spaces only, and the page's
 * kind beside a brand is left out.
 */
export const BRAND_BAR_STYLE = `.top .brand{display:flex;align-items:center;gap:.75rem;min-width:0}
.top .brand img{display:block;height:2rem;width:auto;max-width:10rem;object-fit:contain}
.top .by{color:var(--muted);font-weight:400;font-size:.9375rem;margin-left:auto;white-space:nowrap}
.top .brand span{overflow-wrap:break-word}
@media (max-width:30rem){.top .brand~.by{display:none}}`;

const STYLE = `
:root{--bg:#f5f6f8;--surface:#fff;--text:#1b2430;--muted:#4a5565;--line:#dfe3e8;--accent:#0f5e9c;
--accent-dark:#0b4776;--accent-soft:#eaf2fa;--ok:#166534;--ok-soft:#ecf8f0;--bad:#b42318;--bad-soft:#fdf0ef;
--warn:#8a4b08;--warn-soft:#fff7e6;color-scheme:light}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);overflow-wrap:anywhere;font:1.0625rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent);text-underline-offset:.15em}
a:hover{color:var(--accent-dark)}
:focus-visible{outline:3px solid var(--accent);outline-offset:3px;border-radius:4px}
.skip{position:absolute;left:-999px;top:.5rem;background:var(--surface);padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
.top{background:var(--surface);border-bottom:1px solid var(--line)}
.top .wrap{display:flex;align-items:center;gap:.5rem;padding-top:.75rem;padding-bottom:.75rem;font-weight:600}
.top svg{flex:none;color:var(--accent)}
${BRAND_BAR_STYLE}
.wrap{max-width:44rem;margin:0 auto;padding-left:1rem;padding-right:1rem}
main.wrap{padding-top:1.5rem;padding-bottom:3rem}
h1{font-size:1.625rem;line-height:1.25;margin:.25rem 0 .75rem;letter-spacing:-.01em}
h2{font-size:1.25rem;line-height:1.3;margin:2rem 0 .75rem}
h3{font-size:1.125rem;line-height:1.35;margin:0 0 .25rem}
p{margin:0 0 1rem}
.eyebrow{color:var(--muted);font-size:.9375rem;font-weight:600;margin-bottom:.25rem}
.lead{font-size:1.125rem}
.muted{color:var(--muted)}
.pre-line{white-space:pre-line}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.card{background:var(--surface);border:1px solid var(--line);border-radius:12px;padding:1.25rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(16,24,40,.04)}
.card>:last-child{margin-bottom:0}
.list{list-style:none;margin:0;padding:0}
.meta{color:var(--muted);font-size:.9375rem;margin:.25rem 0 1rem}
.status{display:inline-block;font-size:.875rem;font-weight:600;border-radius:999px;padding:.125rem .625rem;margin:0 0 .75rem}
.status.ok{background:var(--ok-soft);color:var(--ok)}
.status.bad{background:var(--bad-soft);color:var(--bad)}
.status.todo{background:var(--accent-soft);color:var(--accent-dark)}
.notice{border-radius:12px;padding:1rem 1.25rem;margin:0 0 1.25rem;border:1px solid}
.notice p:last-child{margin-bottom:0}
.notice.ok{background:var(--ok-soft);border-color:#b7e0c4}
.notice.bad{background:var(--bad-soft);border-color:#f3c0bb}
.notice.warn{background:var(--warn-soft);border-color:#f2d29b;color:var(--warn)}
.notice h2{margin-top:0;font-size:1.125rem}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:3rem;padding:.75rem 1.5rem;border-radius:10px;border:2px solid var(--accent);background:var(--accent);color:#fff;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;text-align:center}
.button:hover{background:var(--accent-dark);border-color:var(--accent-dark);color:#fff}
.button.secondary{background:var(--surface);color:var(--accent)}
.button.secondary:hover{background:var(--accent-soft);color:var(--accent-dark)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0 0}
form{margin:0}
.bar{display:flex;align-items:center;gap:.75rem;margin:.25rem 0 1rem}
progress{flex:1;height:.75rem;border:0;border-radius:999px;background:#e4e8ee;overflow:hidden;-webkit-appearance:none;appearance:none}
progress::-webkit-progress-bar{background:#e4e8ee;border-radius:999px}
progress::-webkit-progress-value{background:var(--accent);border-radius:999px}
progress::-moz-progress-bar{background:var(--accent);border-radius:999px}
.bar strong{min-width:3.5rem;text-align:right}
.prose{background:var(--surface);border:1px solid var(--line);border-radius:12px;padding:1.25rem}
.prose>:first-child{margin-top:0}.prose>:last-child{margin-bottom:0}
.prose h1,.prose h2,.prose h3{margin:1.5rem 0 .5rem}
.prose ul,.prose ol{padding-left:1.5rem;margin:0 0 1rem}
.prose li{margin:.25rem 0}
.prose blockquote{margin:0 0 1rem;padding:.5rem 1rem;border-left:4px solid var(--accent);background:var(--accent-soft);border-radius:0 8px 8px 0}
.prose code{font-size:.9375em;background:#eef0f3;padding:.1em .3em;border-radius:4px;overflow-wrap:anywhere}
.prose pre{overflow-x:auto;background:#eef0f3;padding:.75rem;border-radius:8px}
.prose img{max-width:100%;height:auto}
.prose table{border-collapse:collapse;display:block;overflow-x:auto}
.prose th,.prose td{border:1px solid var(--line);padding:.375rem .625rem;text-align:left}
.pager{display:flex;justify-content:space-between;gap:1rem;margin-top:1.5rem;font-weight:600}
.pager a{padding:.75rem 0;display:inline-block}
.question{border:1px solid var(--line);border-radius:12px;background:var(--surface);padding:1.25rem;margin:0 0 1rem;min-width:0}
.question.missing{border-color:var(--bad);border-width:2px}
.question legend{float:left;width:100%;padding:0;margin:0 0 .75rem;font-weight:600;font-size:1.0625rem}
.question legend .eyebrow{display:block;margin-bottom:.25rem}
.question legend+*{clear:both}
.field-error{color:var(--bad);font-weight:600;margin:0 0 .75rem}
.choice{display:flex;gap:.75rem;align-items:flex-start;border:1px solid var(--line);border-radius:10px;padding:.75rem .875rem;margin:.5rem 0 0;cursor:pointer;min-height:3rem}
.choice:hover{border-color:var(--accent)}
.choice:has(input:checked){border-color:var(--accent);background:var(--accent-soft)}
.choice input{flex:none;width:1.25rem;height:1.25rem;margin:.15rem 0 0;accent-color:var(--accent)}
.review h3{font-weight:600}
.answer{margin:.5rem 0 0;padding-left:1.75rem;position:relative}
.answer .mark{position:absolute;left:0;font-weight:700}
.answer.right .mark{color:var(--ok)}
.answer.wrong .mark{color:var(--bad)}
.explanation{margin:.75rem 0 0;padding:.75rem 1rem;background:var(--bg);border-radius:8px}
.score{font-size:2.5rem;font-weight:700;line-height:1.1;margin:.5rem 0}
.done-mark{display:flex;width:4rem;height:4rem;border-radius:50%;background:var(--ok-soft);color:var(--ok);align-items:center;justify-content:center;margin:0 0 1rem}
@media (max-width:30rem){.actions>*{flex:1 1 100%}.actions .button,.card .button,form .button{width:100%}.pager{flex-direction:column;gap:0}}
`;

// Our own constant text, never data.
const STYLE_TEXT = new SafeHtml(STYLE);

const SHIELD = html`<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm-1 14-4-4 1.4-1.4L11 13.2l4.6-4.6L17 10l-6 6Z"/></svg>`;

/** Who the training is from, as employees know them: the account's display name and logo. */
export interface PageBrand {
  displayName: string;
  logo: { contentType: string; base64: string } | null;
}

/**
 * The page's top bar: the organisation's logo (a `data:` image: no request, no address of ours
 * in the page) and name when the page knows whose training it is; else Vigil's own words.
 */
export function brandBar(brand: PageBrand | undefined, fallback: string): SafeHtml {
  if (!brand || brand.displayName === '') return html`${SHIELD}<span>${fallback}</span>`;
  const logo = brand.logo
    ? html`<img src="data:${brand.logo.contentType};base64,${brand.logo.base64}" alt="">`
    : SHIELD;
  return html`<span class="brand">${logo}<span>${brand.displayName}</span></span><span class="by">${fallback}</span>`;
}

/** A whole learner page: `title` names it in the browser's tab, `body` is the main content. */
export function learnerPage(title: string, body: SafeHtml, brand?: PageBrand): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title} · Security training</title>
<style>${STYLE_TEXT}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="wrap">${brandBar(brand, 'Security training')}</div></header>
<main id="main" class="wrap">
${body}
</main>
</body>
</html>
`.value;
}
