import { ApiError } from '../api/client';

/**
 * The message to show on one form input for an API error: the field's validation messages
 * (`details.<field>`), or for a 409 the conflict message when it is about that field.
 */
export function fieldError(error: unknown, field: string, conflictField?: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 409 && conflictField === field) return error.message;
  return error.fieldError(field);
}
