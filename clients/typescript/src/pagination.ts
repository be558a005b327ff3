import { VigilError } from './errors.js';

/** A page of a list: the API's envelope. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Page parameters every list takes. */
export interface PageParams {
  page?: number;
  page_size?: number;
}

/** The largest page the API gives (larger sizes are clamped to it). */
export const MAX_PAGE_SIZE = 1000;

/**
 * Every item of a list, page after page, fetched as the iteration reaches them:
 * `for await (const employee of client.employees.list()) …`. Starts at `page` (default 1) and
 * asks for the largest pages unless `page_size` is given; stops after the page whose `next` is
 * null. Pages are numbered, so each is asked for by number, never by following a URL from an
 * answer: the key only ever goes to the configured address.
 */
export class PageIterator<T, P extends PageParams> implements AsyncIterable<T> {
  readonly #fetchPage: (params: P) => Promise<Page<T>>;
  readonly #params: P;

  constructor(fetchPage: (params: P) => Promise<Page<T>>, params: P) {
    this.#fetchPage = fetchPage;
    this.#params = params;
  }

  /** Each page in turn (an empty collection gives one page with no results). */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const { page: first = 1, page_size = MAX_PAGE_SIZE, ...filters } = this.#params;
    for (let page = first; ; page++) {
      let answer: Page<T>;
      try {
        answer = await this.#fetchPage({ page, page_size, ...filters } as P);
      } catch (err) {
        // Items deleted meanwhile can leave fewer pages than there were: the list has ended.
        if (page > first && err instanceof VigilError && err.code === 'invalid_page') return;
        throw err;
      }
      yield answer;
      if (answer.next === null || answer.results.length === 0) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.results;
  }

  /** Every item in one array (mind the memory for large lists). */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
