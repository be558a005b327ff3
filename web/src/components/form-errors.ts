import { ApiError } from '../api/client';
import { type FieldNames, fieldMessage } from '../api/field-names';

/**
 * The message to show on one form input for an API error: the field's validation messages
 * (`details.<field>`), or the error's own message when its code is about that field
 * (`email_taken` on `email`). Other fields a message names (`must be after window_start_at`) are
 * named as the form `names` them.
 */
export function fieldError(error: unknown, field: string, names?: FieldNames): string | undefined {
  const message = error instanceof ApiError ? error.fieldError(field) : undefined;
  return message === undefined ? undefined : fieldMessage(names, message);
}
