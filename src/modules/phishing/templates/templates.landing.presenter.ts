import { escape as escapeHtml } from 'html-escaper';
import sanitizeHtml from 'sanitize-html';
import {
  cleanValue,
  type EmailTemplate,
  type EmailVars,
  LANDING_VARIABLES,
  type RecipientVars,
  renderChecked,
  renderEmailText,
} from './templates.render.model.js';
import { quotePattern, type RedFlag, type RedFlagPart } from './templates.rules.model.js';

/**
 * What a person sees in the browser after clicking: the landing page, and the teachable copy of
 * the email. Landing pages are written by administrators and served from PHISH_URL, so they
 * are sanitised to a page that can run nothing and load nothing: no script or event handler,
 * no URL but `#` fragments and `data:` images, every form posting back to Vigil. The
 * Content-Security-Policy below enforces the same in the browser, should anything slip through.
 */

/** Sent with every landing page: nothing but inline styles, data: images and forms to itself. */
export const LANDING_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; sandbox allow-forms allow-same-origin";

/** The landing route's headers: the policy, never indexed, cached or told where it came from. */
export const LANDING_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': LANDING_PAGE_CSP,
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'content-type': 'text/html; charset=utf-8',
};

const SVG_TAGS = ['svg', 'g', 'path', 'circle', 'ellipse', 'rect', 'line', 'polyline', 'polygon'];
const ALLOWED_TAGS = [
  ...sanitizeHtml.defaults.allowedTags,
  ...['title', 'style', 'img', 'del', 'ins', 'details', 'summary', 'progress', 'meter'],
  ...['form', 'input', 'button', 'label', 'select', 'option', 'optgroup', 'textarea', 'fieldset', 'legend'],
  ...SVG_TAGS,
  ...['text', 'tspan', 'defs', 'lineargradient', 'radialgradient', 'stop', 'desc', 'clippath'],
];

// None of these can name a URL; those that can are allowed per tag and checked in `attributes`.
const ANY_TAG_ATTRIBUTES = [
  ...['class', 'id', 'style', 'title', 'lang', 'dir', 'role', 'aria-*', 'hidden', 'tabindex'],
  ...['width', 'height', 'align', 'alt', 'for', 'name', 'value', 'type', 'placeholder', 'label'],
  ...['required', 'maxlength', 'minlength', 'size', 'min', 'max', 'step', 'pattern', 'inputmode'],
  ...['checked', 'selected', 'disabled', 'readonly', 'multiple', 'autofocus', 'autocomplete'],
  ...['rows', 'cols', 'colspan', 'rowspan', 'scope', 'span', 'start', 'reversed', 'open', 'datetime'],
  ...['low', 'high', 'optimum', 'novalidate'],
  // Inline SVG (fill, stroke and clip-path may hold url(), checked like CSS).
  ...['viewbox', 'xmlns', 'preserveaspectratio', 'd', 'points', 'transform', 'opacity', 'offset'],
  ...['cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'dx', 'dy', 'fx', 'fy'],
  ...['fill', 'fill-opacity', 'fill-rule', 'clip-rule', 'clip-path', 'stroke', 'stroke-width'],
  ...['stroke-linecap', 'stroke-linejoin', 'stroke-opacity', 'stroke-dasharray', 'stop-color'],
  ...['stop-opacity', 'gradientunits', 'gradienttransform', 'font-size', 'font-family', 'font-weight'],
  ...['text-anchor', 'dominant-baseline', 'focusable'],
];
const CSS_VALUED = new Set(['style', 'fill', 'stroke', 'clip-path']);
// Set by Vigil below, whatever the page says.
const FORCED = new Set(['action', 'method', 'autocomplete']);
const DATA_IMAGE = /^\s*data:image\/[a-z0-9.+-]+[;,]/i;

/** CSS escapes spelled out, so that what is checked is what the browser reads. */
function decodeCssEscapes(css: string): string {
  return css
    .replace(/\\([0-9a-f]{1,6})[ \t\n\r\f]?/gi, (_, hex: string) => {
      const cp = Number.parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
    })
    .replace(/\\\r?\n/g, '')
    .replace(/\\(.)/gs, '$1');
}

/**
 * CSS that loads nothing: `@import` removed, and every function that can fetch (`url()` to
 * anything but a data: image or a `#` fragment, `image-set()`, `src()`, …) renamed so the
 * declaration is invalid and ignored. `<` is escaped: inside inline SVG a browser parses a
 * `<style>` as markup.
 */
export function cleanCss(css: string): string {
  return decodeCssEscapes(css)
    .replace(/@import\b[^;]*;?/gi, '')
    .replace(/url\s*\(\s*(?!['"]?\s*(?:data:image\/|#))/gi, 'removed(')
    .replace(
      /(?<![\w-])(?:-webkit-image-set|image-set|image|cross-fade|element|src|expression)\s*\(/gi,
      'removed(',
    )
    .replaceAll('<', '\\3c ');
}

/** One tag's attributes under the page's rules (the allow-list then drops everything else). */
function attributes(
  tag: string,
  attribs: sanitizeHtml.Attributes,
  submitUrl: string,
): sanitizeHtml.Attributes {
  const out: sanitizeHtml.Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (FORCED.has(name)) continue;
    if (name === 'href') {
      if (value.trim().startsWith('#')) out[name] = value;
    } else if (name === 'src') {
      if (DATA_IMAGE.test(value)) out[name] = value;
    } else if (CSS_VALUED.has(name)) {
      out[name] = cleanCss(value);
    } else {
      out[name] = value;
    }
  }
  // Every form posts to Vigil's submit route, and nothing typed is remembered by the browser.
  if (tag === 'form') return { action: submitUrl, method: 'post', autocomplete: 'off', ...out };
  if (tag === 'input' || tag === 'textarea' || tag === 'select') out.autocomplete = 'off';
  return out;
}

const ROBOTS = '<meta name="robots" content="noindex,nofollow">';

/** Serialises attributes already cleaned (values escaped for a double-quoted attribute). */
const attributeText = (attribs: sanitizeHtml.Attributes, names: string[]) =>
  names
    .filter((name) => attribs[name] !== undefined)
    .map((name) => ` ${name}="${escapeHtml(attribs[name] ?? '')}"`)
    .join('');

/**
 * A landing page for one person: variables rendered (escaped), then the result sanitised and
 * wrapped in a full document with `noindex`. `<html>`, `<head>` and `<body>` of the page are
 * replaced by Vigil's own (keeping `lang` and the body's class and style).
 */
export function renderLandingPage(page: string, vars: RecipientVars, options: { submitUrl: string }): string {
  const rendered = renderChecked(page, LANDING_VARIABLES, vars, { escape: true });
  let htmlAttribs: sanitizeHtml.Attributes = {};
  let bodyAttribs: sanitizeHtml.Attributes = {};
  const clean = sanitizeHtml(rendered, {
    allowedTags: ALLOWED_TAGS,
    allowVulnerableTags: true,
    allowedAttributes: { '*': ANY_TAG_ATTRIBUTES, a: ['href'], img: ['src'], form: ['action', 'method'] },
    allowedSchemes: [],
    allowedSchemesByTag: { img: ['data'], form: ['http', 'https'] },
    allowProtocolRelative: false,
    parseStyleAttributes: false,
    // An image whose source was removed would only show as a broken image.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
    transformTags: {
      '*': (tagName, attribs) => {
        const cleaned = attributes(tagName, attribs, options.submitUrl);
        if (tagName === 'html') htmlAttribs = cleaned;
        if (tagName === 'body') bodyAttribs = cleaned;
        return { tagName, attribs: cleaned };
      },
    },
  })
    // Inside an <svg> a <style> is parsed as markup, not raw text (foreign content): dropped.
    .replace(/<svg\b[\s\S]*?<\/svg>/gi, (svg) => svg.replace(/<style\b[\s\S]*?<\/style>/gi, ''))
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style>/g, (_, css: string) => `<style>${cleanCss(css)}</style>`);
  // Titles and styles that came first (the page's <head>) go into Vigil's head.
  const head = /^(?:\s*(?:<title\b[^>]*>[\s\S]*?<\/title>|<style>[\s\S]*?<\/style>))*/.exec(clean)?.[0] ?? '';
  return [
    `<!doctype html>\n<html${attributeText(htmlAttribs, ['lang', 'dir'])}>\n<head>\n<meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ROBOTS,
    ...(head.trim() ? [head.trim()] : []),
    `</head>\n<body${attributeText(bodyAttribs, ['class', 'style'])}>`,
    clean.slice(head.length).trim(),
    '</body>\n</html>\n',
  ].join('\n');
}

export interface TeachableFlag extends RedFlag {
  /** 1-based, as in `data-flag`. */
  number: number;
  /** Whether its quote was found and marked. */
  marked: boolean;
}

/** The email as the person received it, as HTML-escaped text to display, red flags marked. */
export interface TeachableEmail {
  /** `Sender Name <address>` */
  sender_html: string;
  subject_html: string;
  /** The text body; show it with `white-space: pre-wrap`. */
  body_html: string;
  flags: TeachableFlag[];
}

interface Quote {
  n: number;
  quote: string;
}

/** Where each quote first occurs in `text` without overlapping one found before it. */
function findQuotes(text: string, quotes: Quote[]): { start: number; end: number; n: number }[] {
  const ranges: { start: number; end: number; n: number }[] = [];
  for (const { n, quote } of quotes) {
    if (!quote.trim()) continue;
    for (const match of text.matchAll(quotePattern(quote))) {
      const start = match.index;
      const end = start + match[0].length;
      if (ranges.some((r) => start < r.end && r.start < end)) continue;
      ranges.push({ start, end, n });
      break;
    }
  }
  return ranges.sort((a, b) => a.start - b.start);
}

/**
 * The text escaped for HTML, each quote found wrapped in `<mark data-flag="n">`. Quotes are
 * found in the raw text and every piece is escaped as it is written out, so a quote can never
 * split an entity or bring markup of its own.
 */
function markQuotes(text: string, quotes: Quote[], marked: Set<number>): string {
  let out = '';
  let at = 0;
  for (const r of findQuotes(text, quotes)) {
    const quoted = escapeHtml(text.slice(r.start, r.end));
    out += `${escapeHtml(text.slice(at, r.start))}<mark data-flag="${r.n}">${quoted}</mark>`;
    at = r.end;
    marked.add(r.n);
  }
  return out + escapeHtml(text.slice(at));
}

/**
 * The teachable moment's copy of the email. The text body stands for the message (no markup of
 * the account's reaches the page); a link flag whose words are not in it marks the link itself.
 */
export function renderTeachableEmail(
  template: EmailTemplate & { red_flags: readonly RedFlag[] },
  vars: EmailVars,
): TeachableEmail {
  const email = renderEmailText(template, vars);
  const flags = template.red_flags.map((flag, i) => ({ ...flag, n: i + 1 }));
  const of = (...parts: RedFlagPart[]) => flags.filter((f) => parts.includes(f.part));
  const inBody = findQuotes(email.text, of('body', 'link')).map((r) => r.n);
  const link = cleanValue(vars.link);
  const bodyQuotes = of('body', 'link').map((f) =>
    f.part === 'link' && !inBody.includes(f.n) && link ? { ...f, quote: link } : f,
  );
  const marked = new Set<number>();
  return {
    sender_html: markQuotes(`${email.sender_name} <${email.sender_address}>`, of('sender'), marked),
    subject_html: markQuotes(email.subject, of('subject'), marked),
    body_html: markQuotes(email.text, bodyQuotes, marked),
    flags: flags.map(({ n, ...flag }) => ({ ...flag, number: n, marked: marked.has(n) })),
  };
}
