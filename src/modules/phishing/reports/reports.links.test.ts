import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_LINK_LENGTH,
  phishBases,
  tokenOfLink,
  tokensInBody,
  unwrapRewrittenUrl,
  withoutTrailingPunctuation,
} from './reports.links.model.js';

const TOKEN = 'Qx7-Lm_2aB9cD0eF1gH3iJ4kL5mN6oP7';
const LANDING = `https://phish.example.com/v/${TOKEN}`;
const bases = phishBases(['https://phish.example.com', 'https://vigil.example.org/sim/']);

/** Proofpoint v2's encoding: percent-encoded, then `%` written `-` and `/` written `_`. */
function proofpointV2(url: string): string {
  const encoded = url
    .replace(/[^A-Za-z0-9./]/g, (c) => `-${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .replace(/\//g, '_');
  return `https://urldefense.proofpoint.com/v2/url?u=${encoded}&d=DwMFaQ&c=euGZstcaTDllvimEN8b7jXrwqOf-v5A_CdpgnVfiiMM&r=abc&m=def&s=ghi&e=`;
}

describe('unwrapRewrittenUrl', () => {
  it('reads the original URL out of Microsoft Safe Links', () => {
    const safe = `https://eur02.safelinks.protection.outlook.com/?url=${encodeURIComponent(LANDING)}&data=05%7C02%7Cjane%40example.com%7C8f1e%7C0%7C0&sdata=Xy%2Bz%3D&reserved=0`;
    expect(unwrapRewrittenUrl(safe)).toBe(LANDING);
    const gov = `https://gcc02.safelinks.protection.office365.us/?url=${encodeURIComponent(LANDING)}&data=x`;
    expect(unwrapRewrittenUrl(gov)).toBe(LANDING);
  });

  it('reads Proofpoint URL Defense v1, v2 and v3', () => {
    expect(
      unwrapRewrittenUrl(`https://urldefense.proofpoint.com/v1/url?u=${encodeURIComponent(LANDING)}&k=abc`),
    ).toBe(LANDING);
    expect(unwrapRewrittenUrl(proofpointV2(`${LANDING}?lang=en_GB&x=1`))).toBe(`${LANDING}?lang=en_GB&x=1`);
    expect(unwrapRewrittenUrl(`https://urldefense.com/v3/__${LANDING}__;!!ABcD1234!efGH5678$`)).toBe(LANDING);
  });

  it('puts back the characters Proofpoint v3 replaced by * and by runs of **', () => {
    // "Jg" is base64url of "&"; "JiYmJg" of "&&&&", taken by `*` (one) and `**A` (a run of two), then `*`.
    expect(unwrapRewrittenUrl(`https://urldefense.com/v3/__${LANDING}?a=1*b=2__;Jg!!Q!w$`)).toBe(
      `${LANDING}?a=1&b=2`,
    );
    expect(
      unwrapRewrittenUrl(`https://urldefense.com/v3/__https:/x.example/p?a*b**Ac*d__;JiYmJg!!Q!w$`),
    ).toBe('https://x.example/p?a&b&&c&d');
  });

  it('refuses a Proofpoint v3 link whose replaced characters run out', () => {
    expect(unwrapRewrittenUrl(`https://urldefense.com/v3/__${LANDING}?a=1*b=2*c=3__;Jg!!Q!w$`)).toBeNull();
  });

  it('reads Google, Barracuda, Cisco and Sophos redirects', () => {
    expect(
      unwrapRewrittenUrl(`https://www.google.com/url?q=${encodeURIComponent(LANDING)}&sa=D&ust=1&usg=AOv`),
    ).toBe(LANDING);
    expect(unwrapRewrittenUrl(`https://www.google.co.uk/url?sa=t&url=${encodeURIComponent(LANDING)}`)).toBe(
      LANDING,
    );
    expect(
      unwrapRewrittenUrl(
        `https://linkprotect.cudasvc.com/url?a=${encodeURIComponent(LANDING)}&c=E,1,aBc,,&typo=1`,
      ),
    ).toBe(LANDING);
    expect(
      unwrapRewrittenUrl(`https://secure-web.cisco.com/1xYz-AbC_dEf/${encodeURIComponent(LANDING)}`),
    ).toBe(LANDING);
    const sophos = `https://eu-west-1.protection.sophos.com?d=example.com&u=${Buffer.from(LANDING).toString('base64')}&p=m&i=NjU0&t=eEEz&h=216705d8`;
    expect(unwrapRewrittenUrl(sophos)).toBe(LANDING);
  });

  it('cannot undo a Mimecast link, which keeps only an identifier', () => {
    expect(
      unwrapRewrittenUrl('https://protect-eu.mimecast.com/s/AbCdEfGhIjKlMnOp?domain=phish.example.com'),
    ).toBeNull();
  });

  it('leaves other links alone', () => {
    expect(unwrapRewrittenUrl('https://www.example.com/?url=https%3A%2F%2Fphish.example.com')).toBeNull();
    expect(unwrapRewrittenUrl('not a url')).toBeNull();
  });
});

describe('tokenOfLink', () => {
  it('finds the token of a landing link and of the tracking image', () => {
    expect(tokenOfLink(LANDING, bases)).toEqual({ token: TOKEN, source: 'link' });
    expect(tokenOfLink(`${LANDING}/?utm=1#top`, bases)).toEqual({ token: TOKEN, source: 'link' });
    expect(tokenOfLink(`https://phish.example.com/t/${TOKEN}.png`, bases)).toEqual({
      token: TOKEN,
      source: 'image',
    });
  });

  it('compares the host case-insensitively, the scheme, port and path prefix exactly', () => {
    expect(tokenOfLink(`https://PHISH.Example.COM/v/${TOKEN}`, bases)?.token).toBe(TOKEN);
    expect(tokenOfLink(`https://phish.example.com:443/v/${TOKEN}`, bases)?.token).toBe(TOKEN);
    expect(tokenOfLink(`http://phish.example.com/v/${TOKEN}`, bases)).toBeNull();
    expect(tokenOfLink(`https://phish.example.com:8443/v/${TOKEN}`, bases)).toBeNull();
    expect(tokenOfLink(`https://vigil.example.org/sim/v/${TOKEN}`, bases)?.token).toBe(TOKEN);
    expect(tokenOfLink(`https://vigil.example.org/v/${TOKEN}`, bases)).toBeNull();
    expect(tokenOfLink(`https://vigil.example.org/SIM/v/${TOKEN}`, bases)).toBeNull();
  });

  it('ignores a token-looking path on another host or under another path', () => {
    expect(tokenOfLink(`https://phish.example.com.evil.test/v/${TOKEN}`, bases)).toBeNull();
    expect(tokenOfLink(`https://other.example.com/v/${TOKEN}`, bases)).toBeNull();
    expect(tokenOfLink(`https://phish.example.com/x/${TOKEN}`, bases)).toBeNull();
    expect(tokenOfLink(`https://phish.example.com/v/${TOKEN}x`, bases)).toBeNull();
    expect(tokenOfLink(`https://phish.example.com/t/${TOKEN}.gif`, bases)).toBeNull();
  });

  it('undoes rewrites inside rewrites: Safe Links around Proofpoint, Google around Safe Links', () => {
    const proofpoint = proofpointV2(LANDING);
    const safe = `https://nam12.safelinks.protection.outlook.com/?url=${encodeURIComponent(proofpoint)}&data=x&reserved=0`;
    expect(tokenOfLink(safe, bases)).toEqual({ token: TOKEN, source: 'link' });
    const google = `https://www.google.com/url?q=${encodeURIComponent(safe)}&sa=D`;
    expect(tokenOfLink(google, bases)).toEqual({ token: TOKEN, source: 'link' });
  });

  it('gives up past five levels of rewriting', () => {
    let link = LANDING;
    for (let i = 0; i < 6; i++) link = `https://www.google.com/url?q=${encodeURIComponent(link)}`;
    expect(tokenOfLink(link, bases)).toBeNull();
  });
});

describe('tokensInBody', () => {
  it('finds links in HTML attributes, entities decoded, in the order they appear', () => {
    const safe = `https://eur02.safelinks.protection.outlook.com/?url=${encodeURIComponent(LANDING)}&amp;data=05&amp;reserved=0`;
    const html = `<p><a href="${safe}">Reset</a><img src="https://phish.example.com/t/${TOKEN}.png" width="1"></p>`;
    expect(tokensInBody(html, 'html', bases)).toEqual([
      { token: TOKEN, source: 'link' },
      { token: TOKEN, source: 'image' },
    ]);
  });

  it('finds links in text, without the punctuation or brackets around them', () => {
    const text = `Reset it here<${LANDING}>, or (${LANDING}). Also ${LANDING}.`;
    expect(tokensInBody(text, 'text', bases)).toHaveLength(3);
  });
});

describe('withoutTrailingPunctuation', () => {
  it('strips what /[.,;:!?)\\]}\'"*]+$/ stripped, and nothing else', () => {
    const before = /[.,;:!?)\]}'"*]+$/;
    const text = fc.string({ unit: fc.constantFrom(...'.,;:!?)]}\'"*ax/(['), maxLength: 30 });
    fc.assert(fc.property(text, (s) => withoutTrailingPunctuation(s) === s.replace(before, '')));
  });
});

/**
 * Text a sender controls, shaped to make a backtracking pattern retry from every character. Each
 * is read in milliseconds; the bound is loose for a busy machine, and still far below what the
 * quadratic pattern of before took (2 s for 30,000 dots, over a minute for these 300,000).
 */
describe('link extraction in linear time', () => {
  const N = 300_000;
  const shapes: Array<[string, string, 'html' | 'text']> = [
    ['a link followed by a run of dots', `http://a/${'.'.repeat(N)}x`, 'text'],
    ['a phish link followed by a run of closing brackets', `${LANDING}${')'.repeat(N)}x`, 'text'],
    ['a run of scheme starts', 'http://'.repeat(N / 7), 'text'],
    ['a run of half entities', '&#x1'.repeat(N / 4), 'html'],
    ['a Proofpoint v3 link of 75,000 `__;`', `https://urldefense.com/v3/__${'__;A'.repeat(N / 4)}`, 'text'],
    [
      'a Safe Links link of the longest length',
      `https://x.safelinks.protection.outlook.com/?url=${'%25'.repeat(MAX_LINK_LENGTH / 3 - 20)}`,
      'text',
    ],
    [
      'many redirector links',
      `https://www.google.com/url?q=${encodeURIComponent(LANDING)}x `.repeat(N / 80),
      'text',
    ],
  ];
  it.each(shapes)('reads %s quickly', (_name, body, kind) => {
    const started = performance.now();
    tokensInBody(body, kind, bases);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('still finds a phish link followed by a long run of punctuation', () => {
    expect(tokensInBody(`See ${LANDING}${'.'.repeat(N)}`, 'text', bases)).toEqual([
      { token: TOKEN, source: 'link' },
    ]);
  });

  it('skips a "link" longer than MAX_LINK_LENGTH rather than parse it', () => {
    const long = `${LANDING}?pad=${'a'.repeat(MAX_LINK_LENGTH)}`;
    expect(tokensInBody(long, 'text', bases)).toEqual([]);
    expect(tokensInBody(`${LANDING}?pad=${'a'.repeat(1000)}`, 'text', bases)).toHaveLength(1);
  });
});
