import { describe, expect, it } from 'vitest';
import {
  checkTemplateSource,
  EMAIL_VARIABLES,
  type EmailVars,
  renderEmail,
  withoutTrackingImage,
} from './templates.render.model.js';
import { checkTemplate, PHISHING_TEMPLATE_LIMITS } from './templates.rules.model.js';

const template = {
  name: 'Parcel on hold',
  subject: 'Your parcel for {{company}} is on hold',
  sender_name: '{{company}} Deliveries',
  sender_address: 'parcels',
  html: '<!doctype html><html><body><p>Dear {{first_name}} {{last_name}} ({{email}})</p><a href="{{link}}">Track my parcel</a></body></html>',
  text: 'Dear {{first_name}},\nTrack my parcel: {{link}}\n{{sender_name}}',
  difficulty: 2,
  category: 'parcel_delivery',
  language: 'en',
  red_flags: [
    { text: 'A generic greeting.', part: 'body', quote: 'Dear' },
    { text: 'Where does it lead?', part: 'link', quote: 'Track my parcel' },
  ],
  landing_html: '<form><input name="email" value="{{email}}"><button>Go</button></form>',
};

const vars: EmailVars = {
  first_name: 'Alex',
  last_name: 'Rivera',
  email: 'alex@example.com',
  company: 'Acme',
  link: 'https://phish.example/v/abc?x=1&y=2',
  sender_domain: 'mail.example',
};
const TRACKING = 'https://phish.example/t/abc.png';

describe('withoutTrackingImage', () => {
  it('takes the open-tracking image out of a rendered simulation, and nothing else', () => {
    const token = 'A'.repeat(32);
    const { html } = renderEmail(
      {
        subject: 's',
        sender_name: 'n',
        sender_address: 'a',
        html: '<p>Hi <img src="logo.png"></p>',
        text: 't',
      },
      {
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.c',
        company: 'C',
        link: 'https://x/v/t',
        sender_domain: 'd',
      },
      { trackingImageUrl: `https://phish.example/t/${token}.png` },
    );
    expect(html).toContain(`/t/${token}.png`);
    expect(withoutTrackingImage(html)).toBe('<p>Hi <img src="logo.png"></p>');
  });
});

describe('renderEmail', () => {
  it('escapes every value in the HTML body', () => {
    const { html } = renderEmail(
      template,
      { ...vars, first_name: '<script>alert(1)</script>', company: '"><img src=x onerror=alert(2)>' },
      { trackingImageUrl: TRACKING },
    );
    expect(html).toContain('Dear &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<img src=x/);
    expect(html).toContain('href="https://phish.example/v/abc?x&#x3D;1&amp;y&#x3D;2"');
  });

  it('puts values into the text body as written, minus control characters', () => {
    const { text } = renderEmail(
      template,
      { ...vars, first_name: 'Zoë <b>\u0007\u202e' },
      { trackingImageUrl: TRACKING },
    );
    expect(text).toBe('Dear Zoë <b>,\nTrack my parcel: https://phish.example/v/abc?x=1&y=2\nAcme Deliveries');
  });

  it('strips line breaks from the subject and the sender name, so no header can be added', () => {
    const email = renderEmail(
      template,
      { ...vars, company: 'Acme\r\nBcc: victim@example.com\n' },
      { trackingImageUrl: TRACKING },
    );
    expect(email.subject).toBe('Your parcel for AcmeBcc: victim@example.com is on hold');
    expect(email.sender_name).toBe('AcmeBcc: victim@example.com Deliveries');
    expect(email.subject).not.toMatch(/[\r\n]/);
    // Plain text: nothing is escaped in a header.
    expect(
      renderEmail(template, { ...vars, company: 'A & <B>' }, { trackingImageUrl: TRACKING }).subject,
    ).toBe('Your parcel for A & <B> is on hold');
  });

  it('inserts the open-tracking image just before </body>, or at the end without one', () => {
    const { html } = renderEmail(template, vars, { trackingImageUrl: TRACKING });
    expect(html).toMatch(
      /<img src="https:\/\/phish\.example\/t\/abc\.png" width="1" height="1" alt=""[^>]*><\/body><\/html>$/,
    );
    const bare = renderEmail({ ...template, html: '<p>{{link}}</p>' }, vars, { trackingImageUrl: TRACKING });
    expect(bare.html).toMatch(/^<p>https:.*<\/p><img src="https:\/\/phish\.example\/t\/abc\.png"[^>]*>$/);
  });

  it('sends from the local part at the campaign’s domain', () => {
    expect(renderEmail(template, vars, { trackingImageUrl: TRACKING }).sender_address).toBe(
      'parcels@mail.example',
    );
  });

  it('refuses to render a template that would not pass the checks', () => {
    expect(() =>
      renderEmail({ ...template, html: '{{{first_name}}} {{link}}' }, vars, { trackingImageUrl: TRACKING }),
    ).toThrow(/invalid template/);
  });
});

describe('checkTemplateSource', () => {
  const problems = (source: string) => checkTemplateSource(source, EMAIL_VARIABLES).problems;

  it('accepts plain variables, comments and escaped braces', () => {
    expect(problems('Hi {{first_name}} {{ last_name }} {{! note }} \\{{not_a_variable}} {{link}}')).toEqual(
      [],
    );
  });

  it('names unknown variables', () => {
    expect(problems('Hi {{frist_name}} and {{Link}}')).toEqual([
      'unknown variable {{frist_name}}',
      'unknown variable {{Link}}',
    ]);
  });

  it.each([
    ['{{{first_name}}}', 'output without escaping'],
    ['{{& first_name}}', 'output without escaping'],
    ['{{#if first_name}}x{{/if}}', 'blocks such as {{#if}} are not allowed'],
    ['{{#each list}}x{{/each}}', 'blocks such as {{#each}} are not allowed'],
    ['{{^first_name}}x{{/first_name}}', 'blocks'],
    ['{{> footer}}', 'partials'],
    ['{{#> layout}}x{{/layout}}', 'partials'],
    ['{{*inline}}', 'decorators'],
    ['{{lookup first_name "x"}}', 'helpers and arguments are not allowed'],
    ['{{first_name key=1}}', 'helpers and arguments are not allowed'],
    ['{{log (lookup first_name)}}', 'helpers and arguments are not allowed'],
    ['{{a.b}}', '{{a.b}} is not allowed'],
    ['{{../first_name}}', '{{../first_name}} is not allowed'],
    ['{{this.first_name}}', 'is not allowed'],
    ['{{this}}', 'is not allowed'],
    ['{{@root}}', 'is not allowed'],
    ['{{"text"}}', 'only variables'],
  ])('refuses %s', (source, message) => {
    expect(problems(source).join(' | ')).toContain(message);
  });

  it('reports syntax errors with the line', () => {
    expect(problems('line one\nHi {{first_name')).toEqual([
      'syntax error on line 2: {{ is not closed with }}',
    ]);
    expect(problems('{{first_name}}}')).toEqual([
      'syntax error on line 1: }}} closes a {{ opened with two braces',
    ]);
    expect(problems('a\n{{ }}')[0]).toMatch(/^syntax error on line 2: /);
  });

  it('allows only the variables of the place where the template is used', () => {
    expect(checkTemplateSource('{{link}}', ['first_name']).problems).toEqual([
      '{{link}} cannot be used here',
    ]);
  });
});

describe('checkTemplate', () => {
  it('accepts a complete template', () => {
    expect(checkTemplate(template)).toEqual({});
  });

  it('names unknown variables in the field that holds them', () => {
    const errors = checkTemplate({
      ...template,
      subject: 'Hello {{frist_name}}',
      landing_html: '<p>{{link}} {{fisrt_name}}</p>',
    });
    expect(errors).toEqual({
      subject: ['unknown variable {{frist_name}}'],
      landing_html: ['{{link}} cannot be used here', 'unknown variable {{fisrt_name}}'],
    });
  });

  it('refuses an HTML or text body without {{link}}', () => {
    const errors = checkTemplate({ ...template, html: '<p>Hi {{first_name}}</p>', text: 'Hi' });
    expect(errors.html).toEqual(['must contain {{link}}, the personal link that records the click']);
    expect(errors.text).toEqual(['must contain {{link}}, the personal link that records the click']);
  });

  it('reports a syntax error instead of a missing link', () => {
    expect(checkTemplate({ ...template, text: 'Go: {{link' }).text).toEqual([
      'syntax error on line 1: {{ is not closed with }}',
    ]);
  });

  it('checks lengths, difficulty, category, language and the sender’s local part', () => {
    const L = PHISHING_TEMPLATE_LIMITS;
    const errors = checkTemplate({
      ...template,
      name: '',
      subject: 'x'.repeat(L.subject_max + 1),
      sender_name: 'Two\nlines',
      sender_address: 'parcels@evil.example',
      html: `${'x'.repeat(L.html_max)}<a href="{{link}}">Track my parcel</a>`,
      difficulty: 6,
      category: 'lottery',
      language: 'English',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'category',
      'difficulty',
      'html',
      'language',
      'name',
      'sender_address',
      'sender_name',
      'subject',
    ]);
    expect(errors.subject).toEqual([`must be at most ${L.subject_max} characters`]);
    expect(errors.sender_name).toEqual(['must be one line']);
    expect(errors.difficulty).toEqual(['must be a whole number from 1 to 5']);
  });

  it('requires 2 to 6 red flags, each quoting text of its part', () => {
    expect(checkTemplate({ ...template, red_flags: [template.red_flags[0]] }).red_flags).toEqual([
      'must have 2 to 6 entries',
    ]);
    const errors = checkTemplate({
      ...template,
      red_flags: [
        { text: 'Sender', part: 'sender', quote: 'Deliveries' },
        { text: 'Sender', part: 'sender', quote: 'parcels' },
        { text: 'Subject', part: 'subject', quote: 'is on hold' },
        { text: 'Not there', part: 'subject', quote: 'urgent' },
        { text: 'Link words', part: 'link', quote: 'Dear' },
        { text: 'Odd part', part: 'footer', quote: 'Dear' },
      ],
    });
    expect(errors).toEqual({
      'red_flags[3].quote': ['is not in the subject'],
      'red_flags[4].quote': ['is not in the words of a link in the HTML body'],
      'red_flags[5].part': ['must be one of sender, subject, body, link'],
    });
  });

  it('finds a body quote across a line break, and refuses a quote with a variable', () => {
    const text = 'Dear {{first_name}}, your parcel\nis waiting: {{link}}';
    expect(
      checkTemplate({
        ...template,
        text,
        red_flags: [
          { text: 'Wrapped', part: 'body', quote: 'your parcel is waiting' },
          { text: 'Variable', part: 'body', quote: 'Dear {{first_name}}' },
        ],
      }),
    ).toEqual({ 'red_flags[1].quote': ['must be text of the message, without {{variables}}'] });
  });
});
