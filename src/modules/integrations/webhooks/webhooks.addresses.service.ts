/**
 * Where webhooks may go (SSRF): the guard lives in core (`core/outbound-addresses.ts`), shared
 * with single sign-on's discovery and metadata fetches.
 */
export * from '../../../core/outbound-addresses.js';
