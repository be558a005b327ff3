import { LRUCache } from 'lru-cache';

/** A remembered page of an account's groups, with the groups revision it was read at. */
export interface CachedGroupsPage {
  revision: number;
  count: number;
  /** The page's groups as a JSON array text. */
  results: string;
}

export type GroupPagesCache = LRUCache<string, CachedGroupsPage>;

/**
 * An app's remembered Customer API group lists, by `account:page:size` (see groups.service
 * findGroups), least recently used out first within 32 MiB of JSON.
 */
export function createGroupPagesCache(): GroupPagesCache {
  return new LRUCache<string, CachedGroupsPage>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (page) => page.results.length + 64,
  });
}
