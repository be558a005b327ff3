import { ApiError } from '../api/client';

/**
 * The message to show on one form input for an API error: the field's validation messages
 * (`details.<field>`), or the error's own message when its code is about that field
 * (`email_taken` on `email`).
 */
export function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.fieldError(field) : undefined;
}
