import { QueryClient } from '@tanstack/react-query';
import { isTransient } from './api/client';

/** Only hiccups (the network, the server failing) are retried; any other error is an answer. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => isTransient(error) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});
