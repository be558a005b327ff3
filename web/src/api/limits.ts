// The bounds and per-status rules the forms apply, from GET /admin/api/limits (read once).
import { useQuery } from '@tanstack/react-query';
import { authApi, call } from './client';
import type { Limits } from './types';

export const LIMITS_KEY = ['limits'] as const;

export function useLimitsQuery() {
  return useQuery({
    queryKey: LIMITS_KEY,
    queryFn: () => call(authApi.GET('/limits')),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The limits inside the signed-in part of the app (RequireAuth waits for them). */
export function useLimits(): Limits {
  const { data } = useLimitsQuery();
  if (!data) throw new Error('useLimits outside RequireAuth');
  return data;
}
