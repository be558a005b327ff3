import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokensFromReportedMessage } from './reports.extract.model.js';
import { RankedTokens, REPORT_TOKENS_MAX, type TokenSource } from './reports.tokens.model.js';

/** The list as it was made before it was bounded: every token ranked and sorted, then cut. */
function reference(found: Array<[string, TokenSource]>): {
  tokens: string[];
  sources: Record<string, TokenSource>;
} {
  const rank: Record<TokenSource, number> = { header: 0, link: 1, image: 2 };
  const best = new Map<string, { source: TokenSource; seen: number }>();
  found.forEach(([token, source], seen) => {
    const earlier = best.get(token);
    if (!earlier || rank[source] < rank[earlier.source]) best.set(token, { source, seen });
  });
  const ordered = [...best]
    .sort(([, a], [, b]) => rank[a.source] - rank[b.source] || a.seen - b.seen)
    .slice(0, REPORT_TOKENS_MAX);
  return {
    tokens: ordered.map(([t]) => t),
    sources: Object.fromEntries(ordered.map(([t, { source }]) => [t, source])),
  };
}

describe('RankedTokens', () => {
  it('lists what ranking every token would, cut at REPORT_TOKENS_MAX, while keeping that many per source', () => {
    // Few distinct values, so that tokens recur across sources; long lists, so that the cut matters.
    const finding = fc.tuple(
      fc.integer({ min: 0, max: 3 * REPORT_TOKENS_MAX }).map(String),
      fc.constantFrom<TokenSource>('header', 'link', 'image'),
    );
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 8 * REPORT_TOKENS_MAX }), (found) => {
        const ranked = new RankedTokens();
        for (const [token, source] of found) ranked.add(token, source);
        expect(ranked.list()).toEqual(reference(found));
      }),
      { numRuns: 300 },
    );
  });

  it('is complete once the headers alone fill the list', () => {
    const ranked = new RankedTokens();
    for (let i = 0; i < REPORT_TOKENS_MAX - 1; i++) ranked.add(`h${i}`, 'header');
    ranked.add('l', 'link');
    expect(ranked.complete).toBe(false);
    ranked.add('h-last', 'header');
    expect(ranked.complete).toBe(true);
    expect(ranked.list().tokens).toHaveLength(REPORT_TOKENS_MAX);
    expect(ranked.list().tokens).not.toContain('l');
  });
});

describe('tokensFromReportedMessage, bounded', () => {
  const PHISH = 'https://phish.example.com';
  const newTokens = (n: number) => Array.from({ length: n }, () => randomBytes(24).toString('base64url'));
  const headers = (tokens: string[]) => tokens.map((t) => `X-Vigil-Simulation: ${t}\r\n`).join('');
  const links = (tokens: string[]) => tokens.map((t) => `<a href="${PHISH}/v/${t}">x</a>`).join('\n');

  /** A report: its own headers and HTML, the original attached with its headers. */
  function report(own: string[], attached: string[], linked: string[]): Buffer {
    return Buffer.from(
      `From: jane@example.com\r\n${headers(own)}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n` +
        `--b\r\nContent-Type: text/html\r\n\r\n${links(linked)}\r\n` +
        `--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: it@phish.example.com\r\n${headers(attached)}\r\nHello\r\n--b--\r\n`,
    );
  }

  it(`considers at most ${REPORT_TOKENS_MAX} tokens: the headers of the report, of what it carries, then links`, async () => {
    const [own, attached, linked] = [newTokens(30), newTokens(30), newTokens(200)];
    const found = await tokensFromReportedMessage(report(own, attached, linked), { phishUrls: [PHISH] });
    expect(found.tokens).toEqual([...own, ...attached.slice(0, 20)]);
    const few = await tokensFromReportedMessage(report(own.slice(0, 5), [], linked), { phishUrls: [PHISH] });
    expect(few.tokens).toEqual([...own.slice(0, 5), ...linked.slice(0, 45)]);
    expect(Object.keys(few.sources)).toHaveLength(REPORT_TOKENS_MAX);
  });
});
