/**
 * Addresses that are no valid email address ('must be a valid email address'), some of them
 * with a character no address may hold: the rule's unit test (src/fields.test.ts) and the API's
 * create test (employees.test.ts) try the same ones.
 */
export const MALFORMED_EMAILS = [
  'plainaddress',
  '@example.com',
  'ann@',
  'ann@@example.com',
  'ann lee@example.com',
  'ann@example..com',
  'ann@.example.com',
  'Ann <ann@example.com>',
  'ann@127.0.0.1',
  'ann@[127.0.0.1]',
  'ann\u0000@example.com',
  'ann@exam\u0000ple.com',
  'ann\u2028@example.com',
  'ann\ud800@example.com',
];
