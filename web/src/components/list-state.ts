import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/**
 * Search, page and page size of a server-side list. The search box updates at once; the query
 * uses `query` (debounced 300 ms), and a new search starts again at page 1.
 */
export function useListState(initialPageSize = 25) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeRaw] = useState(initialPageSize);
  const [query] = useDebouncedValue(search.trim(), 300);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search starts at page 1
  useEffect(() => setPage(1), [query]);

  const setPageSize = (size: number) => {
    setPageSizeRaw(size);
    setPage(1);
  };
  return { search, setSearch, query, page, setPage, pageSize, setPageSize };
}

/** After a delete the current page may be past the last one: step back to the last page. */
export function useClampPage(
  data: { count: number; results: unknown[] } | undefined,
  page: number,
  pageSize: number,
  setPage: (page: number) => void,
) {
  useEffect(() => {
    if (data && data.results.length === 0 && data.count > 0 && page > 1) {
      setPage(Math.max(1, Math.ceil(data.count / pageSize)));
    }
  }, [data, page, pageSize, setPage]);
}

/**
 * A filter of a server-side list (the empty value: none): choosing another starts again at
 * page 1, as a new search does.
 */
export function useListFilter<T extends string = string>(
  setPage: (page: number) => void,
): [T | '', (value: T | '') => void] {
  const [value, setValue] = useState<T | ''>('');
  const change = (next: T | '') => {
    setValue(next);
    setPage(1);
  };
  return [value, change];
}
