import { expect } from 'vitest';
import type { ErrorCode } from '../../src/errors.js';

/**
 * The fields an error body carries beside the contract's `{error, status, details?}`: spread
 * into an expected body, `{ error: 'Group not found', status: 404, ...coded('group_not_found') }`.
 */
export function coded(code: ErrorCode) {
  return { code, request_id: expect.any(String) };
}
