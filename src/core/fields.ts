import validator from 'validator';
import type { FieldErrorCollector } from './errors.js';

/**
 * Input rules for text fields, shared by the API, the web interface and the CLI. Strings are
 * trimmed; lengths count Unicode characters (code points), not UTF-16 units.
 */

export const NAME_MAX = 150;
export const DESCRIPTION_MAX = 2000;
export const EMAIL_MAX = 254;

// C0/C1 controls (NUL included: PostgreSQL cannot store it) and the line/paragraph separators.
const CONTROL_IN_LINE = /[\p{Cc}\u2028\u2029]/u;
// Multi-line text may keep tabs and line breaks.
const CONTROL_IN_TEXT = /[^\P{Cc}\t\n\r]/u;

function length(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** The value trimmed, or null (with the error recorded) when it is missing or not a string. */
function trimmedString(errors: FieldErrorCollector, field: string, value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  errors.add(field, value === undefined || value === null ? 'is required' : 'must be a string');
  return null;
}

function checkTextWith(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  opts: { min: number; max: number; control: RegExp },
): string {
  const text = trimmedString(errors, field, value);
  if (text === null) return '';
  if (!text.isWellFormed()) errors.add(field, 'must be valid Unicode text');
  else if (opts.control.test(text)) errors.add(field, 'must not contain control characters');
  const n = length(text);
  if (n < opts.min) errors.add(field, 'must not be empty');
  else if (n > opts.max) errors.add(field, `must be at most ${opts.max} characters`);
  return text;
}

/** A one-line name: 1–150 characters after trimming. */
export function checkName(errors: FieldErrorCollector, field: string, value: unknown): string {
  return checkTextWith(errors, field, value, { min: 1, max: NAME_MAX, control: CONTROL_IN_LINE });
}

/** A one-line name that may be left out or empty (0–150 characters after trimming). */
export function checkOptionalName(errors: FieldErrorCollector, field: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  return checkTextWith(errors, field, value, { min: 0, max: NAME_MAX, control: CONTROL_IN_LINE });
}

/** Free text: 0–2,000 characters after trimming; line breaks allowed. */
export function checkDescription(errors: FieldErrorCollector, field: string, value: unknown): string {
  return checkTextWith(errors, field, value, { min: 0, max: DESCRIPTION_MAX, control: CONTROL_IN_TEXT });
}

/** Multi-line text of `min`–`max` characters after trimming (lesson text, quiz questions). */
export function checkText(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  bounds: { min: number; max: number },
): string {
  return checkTextWith(errors, field, value, { ...bounds, control: CONTROL_IN_TEXT });
}

/** The form uniqueness and look-ups compare: case-insensitive. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A syntactically valid address of at most 254 characters whose domain has a dot. */
export function checkEmail(errors: FieldErrorCollector, field: string, value: unknown): string {
  const email = trimmedString(errors, field, value);
  if (email === null) return '';
  if (email === '') {
    errors.add(field, 'must not be empty');
  } else if (length(email) > EMAIL_MAX) {
    errors.add(field, `must be at most ${EMAIL_MAX} characters`);
  } else {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const valid =
      email.isWellFormed() &&
      !CONTROL_IN_LINE.test(email) &&
      domain.includes('.') &&
      validator.isEmail(email, { require_tld: false, allow_ip_domain: false, allow_display_name: false });
    if (!valid) errors.add(field, 'must be a valid email address');
  }
  return email;
}
