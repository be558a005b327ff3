import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_BURST,
  AddressBurstCounter,
  CLASSIFICATION_REASONS,
  type ClassificationContext,
  type ClassificationReason,
  classifyHit,
  clickToPromote,
  type HitHeaders,
  promotesEarlierClick,
  type RecordedClick,
  type TrackingHit,
} from './simulation.classify.model.js';
import { parseScannerNetworks } from './simulation.scanners.model.js';

const DELIVERED = Date.UTC(2026, 10, 24, 9, 0, 0);
const MINUTE = 60_000;

// Real user agents of the browsers and mail clients people read simulations with.
const PEOPLE: Record<string, string> = {
  'Chrome on Windows':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Chrome on macOS':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Firefox on Windows': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Firefox on Linux': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Safari on macOS':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Edge on Windows':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Safari on iPhone':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Chrome on iPhone':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  'Chrome on Android':
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Samsung Internet':
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Firefox on Android': 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  'Gmail app web view (Android)':
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36',
  'Outlook app (iPhone)':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Outlook-iOS/723.4027091.prod.iphone (4.2430.0)',
  'Outlook for Windows loading images':
    'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E; Microsoft Outlook 16.0.17928; ms-office; MSOffice 16)',
  'Apple Mail loading images':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  Thunderbird: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0',
};
const CHROME = PEOPLE['Chrome on Windows']!;

// What Chrome sends when a person opens the link from their mail client.
const NAVIGATION: HitHeaders = {
  host: 'phish.example.test',
  'user-agent': CHROME,
  accept:
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-GB,en;q=0.9',
  'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Windows"',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
  'upgrade-insecure-requests': '1',
};
const IMAGE: HitHeaders = {
  host: 'phish.example.test',
  'user-agent': CHROME,
  accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  'sec-fetch-dest': 'image',
  'sec-fetch-mode': 'no-cors',
  'sec-fetch-site': 'cross-site',
};

const SCANNERS = parseScannerNetworks(['40.92.0.0/15', '2603:1000::/25']).networks;

function hit(overrides: Partial<TrackingHit> = {}): TrackingHit {
  const kind = overrides.kind ?? 'click';
  return {
    kind,
    at: DELIVERED + 10 * MINUTE,
    method: kind === 'submit' || kind === 'interaction' ? 'POST' : 'GET',
    headers: kind === 'open' ? IMAGE : NAVIGATION,
    clientAddress: '198.51.100.23',
    ...overrides,
  };
}
function withAgent(userAgent: string | undefined, overrides: Partial<TrackingHit> = {}): TrackingHit {
  return hit({ ...overrides, headers: { ...NAVIGATION, 'user-agent': userAgent } });
}
function context(overrides: Partial<ClassificationContext> = {}): ClassificationContext {
  return {
    deliveredAt: DELIVERED,
    settings: { automatedWindowSeconds: 60, scannerNetworks: SCANNERS },
    recentRecipientsFromAddress: 1,
    ...overrides,
  };
}
const classify = (h: TrackingHit, c: Partial<ClassificationContext> = {}) => classifyHit(h, context(c));

describe('classifyHit', () => {
  it.each(Object.entries(PEOPLE))('counts an open and a click from %s as human', (_, userAgent) => {
    for (const kind of ['open', 'click'] as const) {
      const base = hit({ kind });
      expect(classify({ ...base, headers: { ...base.headers, 'user-agent': userAgent } })).toEqual({
        classification: 'human',
        reason: 'browser',
      });
    }
  });

  it('takes a HEAD request for a link checker, even with a browser user agent', () => {
    expect(classify(hit({ method: 'HEAD' }))).toEqual({
      classification: 'automated',
      reason: 'head_request',
    });
    expect(classify(hit({ method: 'head', kind: 'open' })).reason).toBe('head_request');
  });

  it('takes methods no browser uses for a link, an image or a form for automated', () => {
    expect(classify(hit({ method: 'OPTIONS' }))).toEqual({
      classification: 'automated',
      reason: 'unexpected_method',
      detail: 'OPTIONS',
    });
  });

  it.each([
    [{ 'sec-purpose': 'prefetch' }, 'sec-purpose: prefetch'],
    [{ 'sec-purpose': 'prefetch;prerender' }, 'sec-purpose: prefetch;prerender'],
    [{ 'sec-purpose': 'prefetch;anonymous-client-ip' }, 'sec-purpose: prefetch;anonymous-client-ip'],
    [{ purpose: 'prefetch' }, 'purpose: prefetch'],
    [{ 'x-moz': 'prefetch' }, 'x-moz: prefetch'],
    [{ 'x-moz': ['prefetch'] }, 'x-moz: prefetch'],
    [{ 'x-purpose': 'preview' }, 'x-purpose: preview'],
    [{ 'x-purpose': 'Preview' }, 'x-purpose: Preview'],
  ])('takes a speculative load (%o) for automated', (extra, detail) => {
    expect(classify(hit({ headers: { ...NAVIGATION, ...extra } }))).toEqual({
      classification: 'automated',
      reason: 'prefetch',
      detail,
    });
  });

  it('ignores purpose headers that announce no speculative load', () => {
    for (const extra of [{ purpose: '' }, { 'x-purpose': 'navigation' }, { 'sec-purpose': 'prefetcher' }]) {
      expect(classify(hit({ headers: { ...NAVIGATION, ...extra } })).reason).toBe('browser');
    }
  });

  it('takes a missing or empty user agent for automated: every browser sends one', () => {
    for (const userAgent of [undefined, '', '   ']) {
      expect(classify(withAgent(userAgent))).toEqual({
        classification: 'automated',
        reason: 'empty_user_agent',
      });
    }
  });

  it.each([
    ['curl/8.5.0', 'curl'],
    ['Wget/1.21.4', 'Wget'],
    ['python-requests/2.32.3', 'python-requests'],
    ['Python-urllib/3.12', 'Python urllib'],
    ['Python/3.12 aiohttp/3.9.5', 'aiohttp'],
    ['Go-http-client/1.1', 'Go net/http'],
    ['Java/17.0.2', 'Java'],
    ['okhttp/4.12.0', 'OkHttp'],
    ['axios/1.7.7', 'axios'],
    ['node', 'Node.js fetch (undici)'],
    ['libwww-perl/6.72', 'libwww-perl'],
    ['Apache-HttpClient/4.5.14 (Java/17.0.9)', 'Apache HttpClient'],
    ['Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.19041.4522', 'PowerShell'],
  ])('takes the HTTP library %s for automated', (userAgent, name) => {
    expect(classify(withAgent(userAgent))).toEqual({
      classification: 'automated',
      reason: 'http_library_user_agent',
      detail: name,
    });
  });

  it.each<[string, ClassificationReason, string]>([
    ['Microsoft Office Existence Discovery', 'known_scanner_user_agent', 'Microsoft Office link check'],
    ['Mozilla/5.0 (compatible; Proofpoint URL Defense)', 'known_scanner_user_agent', 'Proofpoint'],
    ['Mimecast-URL-Protect/1.0', 'known_scanner_user_agent', 'Mimecast'],
    ['Barracuda Sentinel (EE)', 'known_scanner_user_agent', 'Barracuda'],
    [
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
      'image_proxy',
      'Google image proxy',
    ],
    [
      'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
      'image_proxy',
      'Yahoo Mail proxy',
    ],
    ['Mozilla/5.0', 'image_proxy', 'Apple Mail Privacy Protection'],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'link_preview', 'Slack'],
    [
      'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/53.0.2785.143 Safari/537.36 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview',
      'link_preview',
      'Microsoft Teams',
    ],
    [
      'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
      'link_preview',
      'Skype',
    ],
    ['WhatsApp/2.23.20.0 A', 'link_preview', 'WhatsApp'],
    [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'link_preview',
      'Facebook / iMessage',
    ],
  ])('takes %s for automated', (userAgent, reason, detail) => {
    expect(classify(withAgent(userAgent))).toEqual({ classification: 'automated', reason, detail });
  });

  it("takes isbot's crawlers and headless browsers for automated", () => {
    for (const userAgent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    ]) {
      const verdict = classify(withAgent(userAgent));
      expect(verdict).toMatchObject({ classification: 'automated', reason: 'known_scanner_user_agent' });
      expect(verdict.detail).toMatch(/^isbot: /);
    }
  });

  it("takes a browser inside one of the account's scanner networks for automated (IPv4, IPv6, mapped)", () => {
    for (const [clientAddress, detail] of [
      ['40.94.89.23', null],
      ['40.93.12.7', '40.92.0.0/15'],
      ['::ffff:40.92.0.1', '40.92.0.0/15'],
      ['2603:1046:c0b::1', '2603:1000::/25'],
      ['2a00:1450::1', null],
    ] as const) {
      const verdict = classify(hit({ clientAddress }));
      if (detail === null) expect(verdict.reason).toBe('browser');
      else expect(verdict).toEqual({ classification: 'automated', reason: 'scanner_network', detail });
    }
    expect(
      classify(hit({ clientAddress: '40.93.12.7' }), {
        settings: { automatedWindowSeconds: 60, scannerNetworks: [] },
      }).reason,
    ).toBe('browser');
  });

  describe('the delivery window', () => {
    const at = (ms: number, c: Partial<ClassificationContext> = {}) =>
      classify(hit({ at: DELIVERED + ms }), c);

    it('takes an open or a click within the window after delivery for automated, up to its last millisecond', () => {
      expect(at(3_000)).toEqual({
        classification: 'automated',
        reason: 'within_delivery_window',
        detail: '3 s after delivery',
      });
      expect(classify(hit({ kind: 'open', at: DELIVERED + 2_000 })).reason).toBe('within_delivery_window');
      expect(at(59_999).reason).toBe('within_delivery_window');
      expect(at(60_000)).toEqual({ classification: 'human', reason: 'browser' });
    });

    it('takes a hit before the delivery was recorded for automated', () => {
      expect(at(-5_000)).toMatchObject({ reason: 'within_delivery_window', detail: '0 s after delivery' });
    });

    it("follows the account's setting, 0 turning the rule off, and skips it while delivery is unknown", () => {
      const settings = (automatedWindowSeconds: number) => ({
        settings: { automatedWindowSeconds, scannerNetworks: [] },
      });
      expect(at(200_000, settings(300)).reason).toBe('within_delivery_window');
      expect(at(1_000, settings(0)).reason).toBe('browser');
      expect(at(1_000, { deliveredAt: null }).reason).toBe('browser');
    });
  });

  it(`takes one address touching ${ADDRESS_BURST.recipients} recipients' links within seconds for automated`, () => {
    expect(classify(hit(), { recentRecipientsFromAddress: ADDRESS_BURST.recipients - 1 }).reason).toBe(
      'browser',
    );
    expect(classify(hit(), { recentRecipientsFromAddress: ADDRESS_BURST.recipients })).toEqual({
      classification: 'automated',
      reason: 'address_burst',
      detail: `${ADDRESS_BURST.recipients} recipients within ${ADDRESS_BURST.windowSeconds} s`,
    });
  });

  describe('forms and page interactions', () => {
    const soon = { at: DELIVERED + 5_000 };
    const crowded = { recentRecipientsFromAddress: 40 };

    it('counts a form POST and a button press as human, even seconds after delivery or from a busy address', () => {
      for (const c of [{}, crowded]) {
        expect(classify(hit({ kind: 'submit', ...soon }), c)).toEqual({
          classification: 'human',
          reason: 'form_post',
        });
        expect(classify(hit({ kind: 'interaction', ...soon }), c)).toEqual({
          classification: 'human',
          reason: 'page_interaction',
        });
      }
    });

    it('still takes a form POST from an HTTP library, a scanner product, no user agent or a scanner network for automated', () => {
      const post = (overrides: Partial<TrackingHit>) => classify(hit({ kind: 'submit', ...overrides }));
      expect(post({ headers: { 'user-agent': 'python-requests/2.32.3' } }).reason).toBe(
        'http_library_user_agent',
      );
      expect(post({ headers: { 'user-agent': 'Mimecast-URL-Protect/1.0' } }).reason).toBe(
        'known_scanner_user_agent',
      );
      expect(post({ headers: {} }).reason).toBe('empty_user_agent');
      expect(post({ clientAddress: '40.92.3.4' }).reason).toBe('scanner_network');
      expect(classify(hit({ kind: 'interaction', clientAddress: '2603:1000::9' })).reason).toBe(
        'scanner_network',
      );
    });

    it('counts a later click of a recipient already proven human as human, but not a scanner hit on their link', () => {
      const proven = { earlierHumanInteraction: true, ...crowded };
      expect(classify(hit(soon), proven)).toEqual({
        classification: 'human',
        reason: 'after_human_interaction',
      });
      expect(classify(withAgent('curl/8.5.0', soon), proven).reason).toBe('http_library_user_agent');
      expect(classify(hit({ ...soon, method: 'HEAD' }), proven).reason).toBe('head_request');
    });
  });

  it('puts the evidence of the request before its timing, and the method before the headers', () => {
    expect(classify(withAgent('curl/8.5.0', { method: 'HEAD' })).reason).toBe('head_request');
    expect(classify(withAgent('curl/8.5.0', { clientAddress: '40.92.0.1' })).reason).toBe(
      'http_library_user_agent',
    );
    expect(classify(hit({ clientAddress: '40.92.0.1', at: DELIVERED + 1_000 })).reason).toBe(
      'scanner_network',
    );
    expect(classify(hit({ at: DELIVERED + 1_000 }), { recentRecipientsFromAddress: 50 }).reason).toBe(
      'within_delivery_window',
    );
  });

  it('keeps the detail short whatever the request carried', () => {
    const verdict = classify(hit({ headers: { ...NAVIGATION, purpose: `prefetch ${'x'.repeat(5_000)}` } }));
    expect(verdict.detail!.length).toBe(200);
  });

  it('never throws, and always answers one of its reasons, whatever the headers, address, method and times', () => {
    const knownHeader = fc.constantFrom(
      'user-agent',
      'purpose',
      'sec-purpose',
      'x-moz',
      'x-purpose',
      'accept',
    );
    const headers = fc.dictionary(
      fc.oneof(knownHeader, fc.string()),
      fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(undefined)),
    );
    const address = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4Extended(),
      fc.ipV4().map((a) => `::ffff:${a}`),
      fc.string(),
    );
    const time = fc.oneof(fc.integer(), fc.double());
    fc.assert(
      fc.property(
        fc.constantFrom('open', 'click', 'submit', 'interaction'),
        fc.oneof(fc.constantFrom('GET', 'POST', 'HEAD', 'get'), fc.string()),
        headers,
        address,
        time,
        fc.option(time, { nil: null }),
        fc.double(),
        fc.integer(),
        fc.option(fc.boolean(), { nil: undefined }),
        (kind, method, headerSet, clientAddress, at, deliveredAt, seconds, recent, earlier) => {
          const verdict = classifyHit(
            { kind, at, method, headers: headerSet, clientAddress },
            {
              deliveredAt,
              settings: { automatedWindowSeconds: seconds, scannerNetworks: SCANNERS },
              recentRecipientsFromAddress: recent,
              earlierHumanInteraction: earlier,
            },
          );
          expect(Object.keys(CLASSIFICATION_REASONS)).toContain(verdict.reason);
          expect(['human', 'automated']).toContain(verdict.classification);
          expect((verdict.detail ?? '').length).toBeLessThanOrEqual(200);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('promotesEarlierClick', () => {
  it('promotes for a human form POST or button press only', () => {
    const human = { classification: 'human', reason: 'form_post' } as const;
    const machine = { classification: 'automated', reason: 'scanner_network' } as const;
    expect(promotesEarlierClick({ kind: 'submit' }, human)).toBe(true);
    expect(promotesEarlierClick({ kind: 'interaction' }, { ...human, reason: 'page_interaction' })).toBe(
      true,
    );
    expect(promotesEarlierClick({ kind: 'submit' }, machine)).toBe(false);
    expect(promotesEarlierClick({ kind: 'click' }, { classification: 'human', reason: 'browser' })).toBe(
      false,
    );
    expect(promotesEarlierClick({ kind: 'open' }, { classification: 'human', reason: 'browser' })).toBe(
      false,
    );
  });
});

describe('clickToPromote', () => {
  const person = { clientAddress: '198.51.100.23', userAgent: CHROME };
  const click = (over: Partial<RecordedClick> & { id: number }): RecordedClick & { id: number } => ({
    at: DELIVERED + 20_000,
    classification: 'automated',
    reason: 'within_delivery_window',
    ...person,
    ...over,
  });
  const interaction = { at: DELIVERED + 40_000, ...person };

  it("promotes the person's own click, not the scanner's earlier one", () => {
    const scanner = click({
      id: 1,
      at: DELIVERED + 2_000,
      clientAddress: '52.100.1.1',
      userAgent: PEOPLE['Chrome on macOS']!,
    });
    const own = click({ id: 2 });
    expect(clickToPromote(interaction, [scanner, own])?.id).toBe(2);
  });

  it('prefers the same address, and takes the latest of several', () => {
    const elsewhere = click({ id: 1, at: DELIVERED + 30_000, clientAddress: '203.0.113.9' });
    const first = click({ id: 2, at: DELIVERED + 10_000, clientAddress: '::ffff:198.51.100.23' });
    const second = click({ id: 3, at: DELIVERED + 25_000, reason: 'address_burst' });
    expect(clickToPromote(interaction, [elsewhere, first, second])?.id).toBe(3);
    expect(clickToPromote(interaction, [elsewhere])?.id).toBe(1);
  });

  it('promotes nothing when a human click already counts, or when only request evidence made it automated', () => {
    expect(
      clickToPromote(interaction, [
        click({ id: 1 }),
        click({ id: 2, classification: 'human', reason: 'browser' }),
      ]),
    ).toBeNull();
    expect(
      clickToPromote(interaction, [
        click({ id: 1, reason: 'scanner_network' }),
        click({ id: 2, reason: 'prefetch' }),
      ]),
    ).toBeNull();
    expect(clickToPromote(interaction, [click({ id: 1, userAgent: 'curl/8.5.0' })])).toBeNull();
    expect(clickToPromote(interaction, [click({ id: 1, at: interaction.at + 1 })])).toBeNull();
    expect(clickToPromote(interaction, [])).toBeNull();
  });
});

describe('AddressBurstCounter', () => {
  const T = DELIVERED;

  it('counts the distinct recipients one address touched within the window, this one included', () => {
    const counter = new AddressBurstCounter();
    expect(counter.touch('40.94.1.1', 1, T)).toBe(1);
    expect(counter.touch('40.94.1.1', 1, T + 100)).toBe(1);
    expect(counter.touch('40.94.1.1', 2, T + 200)).toBe(2);
    expect(counter.touch('::ffff:40.94.1.1', 3, T + 300)).toBe(3);
    expect(counter.touch('40.94.1.2', 1, T + 300)).toBe(1);
    expect(counter.recipientsOf('40.94.1.1', T + 400)).toEqual([1, 2, 3]);
  });

  it('forgets touches once they are older than the window', () => {
    const windowMs = ADDRESS_BURST.windowSeconds * 1000;
    const counter = new AddressBurstCounter();
    counter.touch('198.51.100.7', 'a', T);
    counter.touch('198.51.100.7', 'b', T + 1_000);
    expect(counter.touch('198.51.100.7', 'c', T + windowMs - 1)).toBe(3);
    expect(counter.touch('198.51.100.7', 'd', T + windowMs)).toBe(3); // 'a' is out
    expect(counter.recipientsOf('198.51.100.7', T + windowMs + 1_000)).toEqual(['c', 'd']);
    expect(counter.touch('198.51.100.7', 'a', T + 10 * windowMs)).toBe(1);
  });

  it('holds at most its limit of recipients per address, enough to see a burst', () => {
    const counter = new AddressBurstCounter({ maxRecipientsPerAddress: 8 });
    let count = 0;
    for (let i = 0; i < 1_000; i++) count = counter.touch('40.94.1.1', i, T + i);
    expect(count).toBe(8);
    expect(counter.recipientsOf('40.94.1.1', T + 1_000)).toEqual([992, 993, 994, 995, 996, 997, 998, 999]);
  });

  it('holds at most its limit of addresses, keeping the busy ones, and drops idle ones within two windows', () => {
    const windowMs = ADDRESS_BURST.windowSeconds * 1000;
    const counter = new AddressBurstCounter({ maxAddresses: 100 });
    for (let i = 0; i < 10_000; i++) {
      counter.touch(`10.0.${i >> 8}.${i & 255}`, i, T + i);
      counter.touch('40.94.1.1', i, T + i); // a scanner walking through everyone's links
      expect(counter.addressCount).toBeLessThanOrEqual(100);
    }
    expect(counter.recipientsOf('40.94.1.1', T + 10_000).length).toBe(4 * ADDRESS_BURST.recipients);
    expect(counter.recipientsOf('10.0.0.0', T + 10_000)).toEqual([]);

    const later = T + 10_000 + 2 * windowMs;
    expect(counter.touch('192.0.2.1', 1, later)).toBe(1);
    expect(counter.addressCount).toBe(1);
  });

  it('keeps an address seen in the older generation when a full one turns', () => {
    const counter = new AddressBurstCounter({ maxAddresses: 4 });
    counter.touch('40.94.1.1', 1, T);
    counter.touch('192.0.2.1', 1, T + 1);
    counter.touch('192.0.2.2', 1, T + 2); // the first generation was full: it is now the older one
    counter.touch('192.0.2.3', 1, T + 3);
    expect(counter.touch('40.94.1.1', 2, T + 4)).toBe(2);
    expect(counter.addressCount).toBeLessThanOrEqual(4);
  });

  it('counts across its generations exactly as one sliding window would', () => {
    const windowMs = ADDRESS_BURST.windowSeconds * 1000;
    const counter = new AddressBurstCounter();
    const seen: { at: number; recipient: number }[] = [];
    let now = T;
    for (let i = 0; i < 2_000; i++) {
      now += (i * 7919) % 1_500; // irregular steps of 0–1.5 s
      const recipient = (i * 31) % 17;
      seen.push({ at: now, recipient });
      const expected = new Set(seen.filter((s) => s.at > now - windowMs).map((s) => s.recipient)).size;
      expect(counter.touch('203.0.113.5', recipient, now)).toBe(expected);
      counter.touch(`198.51.100.${i % 200}`, i, now); // other addresses make the generations turn
    }
  });

  it('refuses limits that would keep nothing', () => {
    expect(() => new AddressBurstCounter({ windowSeconds: 0 })).toThrow(RangeError);
    expect(() => new AddressBurstCounter({ maxAddresses: 1 })).toThrow(RangeError);
    expect(() => new AddressBurstCounter({ maxRecipientsPerAddress: Number.NaN })).toThrow(RangeError);
  });
});
