/**
 * The tokens of one reported message, the most telling first (found in a header, then in a
 * landing link, then in a tracking image; in the order found within each), and at most
 * REPORT_TOKENS_MAX of them: a message may carry any number of token-shaped values, and each
 * one considered is work for the database. A real report carries one token, a few at most.
 */

export type TokenSource = 'header' | 'link' | 'image';

/** The most distinct tokens of one report that are looked up. */
export const REPORT_TOKENS_MAX = 50;

const SOURCES_BY_RANK: readonly TokenSource[] = ['header', 'link', 'image'];

/**
 * Collects tokens as the message is read. Each source keeps the first REPORT_TOKENS_MAX
 * distinct tokens found there, which is enough: the list is those of the headers, then those of
 * the links not already listed, then the images', cut at REPORT_TOKENS_MAX; a source whose own
 * list is full fills the rest of the list by itself, whatever was dropped after it filled.
 */
export class RankedTokens {
  private readonly bySource: Record<TokenSource, Set<string>> = {
    header: new Set(),
    link: new Set(),
    image: new Set(),
  };

  add(token: string, source: TokenSource): void {
    const found = this.bySource[source];
    if (found.size < REPORT_TOKENS_MAX) found.add(token);
  }

  /** Nothing found from now on can change the list: the headers alone fill it. */
  get complete(): boolean {
    return this.bySource.header.size >= REPORT_TOKENS_MAX;
  }

  /** The list, and where each token was found (its most telling place). */
  list(): { tokens: string[]; sources: Record<string, TokenSource> } {
    const sources = new Map<string, TokenSource>();
    for (const source of SOURCES_BY_RANK) {
      for (const token of this.bySource[source]) {
        if (sources.size >= REPORT_TOKENS_MAX) break;
        if (!sources.has(token)) sources.set(token, source);
      }
    }
    return { tokens: [...sources.keys()], sources: Object.fromEntries(sources) };
  }
}
