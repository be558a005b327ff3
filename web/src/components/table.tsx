import { formatNumber } from './format';

const CONTROL_LABELS = {
  first: 'First page',
  last: 'Last page',
  previous: 'Previous page',
  next: 'Next page',
} as const;

/** Props every DataTable shares: borders, rounded corners, row highlight. */
export const baseTableProps = {
  withTableBorder: true,
  borderRadius: 'md',
  highlightOnHover: true,
  minHeight: 200,
} as const;

/** Props every paginated DataTable shares: the base ones, accessible pagination, "1–25 of 10,000". */
export const pagedTableProps = {
  ...baseTableProps,
  paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
    `${formatNumber(from)}–${formatNumber(to)} of ${formatNumber(totalRecords)}`,
  getPaginationControlProps: (control: keyof typeof CONTROL_LABELS) => ({
    'aria-label': CONTROL_LABELS[control],
  }),
  getPaginationItemProps: (page: number) => ({ 'aria-label': `Page ${page}` }),
  loadingText: 'Loading…',
} as const;

/** The page size chooser (spread with `onRecordsPerPageChange`). */
export const pageSizeProps: { recordsPerPageOptions: number[]; recordsPerPageLabel: string } = {
  recordsPerPageOptions: [25, 50, 100],
  recordsPerPageLabel: 'Rows per page',
};

/**
 * The props of a DataTable showing one page of a server-side list: the paged ones, its rows and
 * count from the query, the page and page size from the list's state (`useListState`).
 */
export function serverPageProps<T>(
  list: {
    page: number;
    setPage: (page: number) => void;
    pageSize: number;
    setPageSize: (size: number) => void;
  },
  query: { data?: { results: T[]; count: number }; isFetching: boolean },
) {
  return {
    ...pagedTableProps,
    records: query.data?.results ?? [],
    totalRecords: query.data?.count ?? 0,
    page: list.page,
    onPageChange: list.setPage,
    recordsPerPage: list.pageSize,
    ...pageSizeProps,
    onRecordsPerPageChange: list.setPageSize,
    fetching: query.isFetching,
  };
}

/** A narrow screen hides secondary columns. */
export const WIDE_ONLY = '(min-width: 48em)';
