import { expect } from 'vitest';
import type { ErrorCode } from '../../src/core/errors.js';

/**
 * The fields an error body carries beside the contract's `{error, status, details?}`: spread
 * into an expected body, `{ error: 'Group not found', status: 404, ...coded('group_not_found') }`.
 */
export function coded(code: ErrorCode) {
  return { code, request_id: expect.any(String) };
}

/** The 400 body of a request whose fields break the rules: `details` maps each field to its messages. */
export function validationFailedBody(details: Record<string, string[]>) {
  return { error: 'Validation failed', status: 400, ...coded('validation_failed'), details };
}
