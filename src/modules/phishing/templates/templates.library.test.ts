import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderLandingPage, renderTeachableEmail } from './templates.landing.presenter.js';
import {
  builtInPhishingTemplates,
  loadPhishingLibrary,
  PHISHING_LIBRARY_ROOT,
  PhishingLibraryError,
} from './templates.library.service.js';
import { renderEmail } from './templates.render.model.js';

const REQUIRED_CATEGORIES = [
  'credential_harvest',
  'invoice',
  'parcel_delivery',
  'hr_payroll',
  'it_password_reset',
  'mfa_prompt',
  'file_share',
  'executive_request',
];

const vars = {
  first_name: 'Alex',
  last_name: 'Rivera',
  email: 'alex.rivera@acme.example',
  company: 'Acme',
  link: 'https://phish.example/v/Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4',
  sender_domain: 'mail.acme-notices.example',
};
const TRACKING = 'https://phish.example/t/Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4.png';
const SUBMIT = 'https://phish.example/v/Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4';

describe('the built-in phishing library', () => {
  const library = loadPhishingLibrary();

  it('holds at least 15 templates, every difficulty at least twice and every required category', () => {
    expect(library.length).toBeGreaterThanOrEqual(15);
    for (const difficulty of [1, 2, 3, 4, 5]) {
      expect(
        library.filter((t) => t.difficulty === difficulty).length,
        `difficulty ${difficulty}`,
      ).toBeGreaterThanOrEqual(2);
    }
    for (const category of REQUIRED_CATEGORIES) {
      expect(
        library.some((t) => t.category === category),
        category,
      ).toBe(true);
    }
  });

  it('is read once per process, by slug', () => {
    const map = builtInPhishingTemplates();
    expect(builtInPhishingTemplates()).toBe(map);
    expect([...map.keys()]).toEqual(library.map((t) => t.slug));
  });

  describe.each(library.map((t) => [t.slug, t] as const))('%s', (_slug, template) => {
    it('renders an email with the personal link and the tracking image', () => {
      const email = renderEmail(template, vars, { trackingImageUrl: TRACKING });
      expect(email.subject.length).toBeGreaterThan(0);
      expect(email.subject).not.toContain('{{');
      expect(email.sender_address).toBe(`${template.sender_address}@${vars.sender_domain}`);
      expect(email.html).toContain(`href="${vars.link}"`);
      expect(email.html).toMatch(
        new RegExp(`<img src="${TRACKING}" width="1" height="1" alt=""[^>]*></body>`),
      );
      expect(email.text).toContain(vars.link);
      expect(`${email.html}${email.text}`).not.toMatch(/\{\{|\}\}/);
    });

    it('renders a self-contained landing page: no script, no handler, nothing loaded from elsewhere', () => {
      // As written, too: the sanitiser is a safety net, not an editor of the built-in pages.
      expect(template.landing_html).not.toMatch(/https?:\/\/|<script|\son[a-z]+\s*=/i);
      const page = renderLandingPage(template.landing_html, vars, { submitUrl: SUBMIT });
      expect(page).toContain('<meta name="robots" content="noindex,nofollow">');
      expect(page).not.toMatch(/<script/i);
      expect(page).not.toMatch(/\son[a-z]+\s*=/i);
      // Every address in the page is the submit route, a fragment or a data: image.
      const urls = [...page.matchAll(/(?:src|href|action|srcset|poster)="([^"]*)"|url\(\s*['"]?([^'")]*)/gi)];
      for (const [, attribute, css] of urls) {
        const url = attribute ?? css ?? '';
        expect(url === SUBMIT || url.startsWith('#') || url.startsWith('data:image/'), url).toBe(true);
      }
      expect(page.replaceAll(SUBMIT, '')).not.toMatch(/https?:\/\//i);
      expect(page).not.toContain('{{');
      // The page as written needed no cleaning: what the author wrote is what people see.
      expect(page).not.toContain('removed(');
      for (const form of page.match(/<form\b[^>]*>/g) ?? []) {
        expect(form).toContain(`action="${SUBMIT}" method="post"`);
      }
    });

    it('has 2 to 6 red flags, each marked on the teachable page', () => {
      expect(template.red_flags.length).toBeGreaterThanOrEqual(2);
      expect(template.red_flags.length).toBeLessThanOrEqual(6);
      const teachable = renderTeachableEmail(template, vars);
      expect(teachable.flags.filter((f) => !f.marked)).toEqual([]);
    });
  });

  it('has landing pages with a form to fill in and others with a button only', () => {
    const pages = library.map((t) => t.landing_html);
    expect(pages.some((p) => /type="password"/.test(p))).toBe(true);
    expect(pages.some((p) => /<form/.test(p) && !/<input[^>]+type="(text|email|password|tel)"/.test(p))).toBe(
      true,
    );
  });
});

describe('a built-in template that cannot be loaded', () => {
  const root = mkdtempSync(join(tmpdir(), 'vigil-phishing-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const slug = 'parcel-redelivery-fee';
  const folder = join(root, slug);
  const json = JSON.parse(readFileSync(join(PHISHING_LIBRARY_ROOT, slug, 'template.json'), 'utf8'));
  function reset() {
    rmSync(folder, { recursive: true, force: true });
    cpSync(join(PHISHING_LIBRARY_ROOT, slug), folder, { recursive: true });
  }

  it('fails with a message naming the folder and the problem', () => {
    reset();
    expect(loadPhishingLibrary(root).map((t) => t.slug)).toEqual([slug]);

    writeFileSync(join(folder, 'email.txt'), 'No link here, {{frist_name}}.');
    expect(() => loadPhishingLibrary(root)).toThrow(PhishingLibraryError);
    expect(() => loadPhishingLibrary(root)).toThrow(
      `phishing template ${folder}: text: unknown variable {{frist_name}}, must contain {{link}}, the personal link that records the click`,
    );

    reset();
    writeFileSync(join(folder, 'template.json'), JSON.stringify({ ...json, difficulty: 7 }));
    expect(() => loadPhishingLibrary(root)).toThrow(/parcel-redelivery-fee: template\.json: \/difficulty /);

    writeFileSync(join(folder, 'template.json'), JSON.stringify({ ...json, slug: 'other' }));
    expect(() => loadPhishingLibrary(root)).toThrow(/slug "other" differs from its folder/);

    writeFileSync(join(folder, 'template.json'), '{ not json');
    expect(() => loadPhishingLibrary(root)).toThrow(/parcel-redelivery-fee: template\.json: .*JSON/);

    writeFileSync(
      join(folder, 'template.json'),
      JSON.stringify({ ...json, landing_page: '../../secret.html' }),
    );
    expect(() => loadPhishingLibrary(root)).toThrow(/template\.json: \/landing_page /);

    reset();
    rmSync(join(folder, 'landing.html'));
    expect(() => loadPhishingLibrary(root)).toThrow(`phishing template ${folder}: landing.html is missing`);

    reset();
    writeFileSync(
      join(folder, 'template.json'),
      JSON.stringify({
        ...json,
        red_flags: [...json.red_flags.slice(1), { ...json.red_flags[0], quote: 'Service' }],
      }),
    );
    expect(() => loadPhishingLibrary(root)).toThrow(
      /red_flags\[4\]\.quote: is not in the sender name or address/,
    );
  });

  it('fails when the library itself is missing', () => {
    expect(() => loadPhishingLibrary(join(root, 'nowhere'))).toThrow(/phishing template library not found/);
  });

  it('carries a code, so the server prints it on one line', () => {
    expect(new PhishingLibraryError('x').code).toBe('PHISHING_LIBRARY_INVALID');
  });
});
