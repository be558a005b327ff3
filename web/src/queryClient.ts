import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client';

/** Client errors (4xx) are answers, not hiccups: they are not retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});
