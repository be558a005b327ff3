import { scimError } from './scim.errors.model.js';

/**
 * Reading SCIM resources sent by identity providers: the few attributes Vigil keeps, with the
 * liberties Okta and Microsoft Entra take (string booleans, names spread over `name` and
 * `displayName`). Attributes Vigil does not keep (password, locale, phone numbers, roles,
 * extensions…) are ignored, as RFC 7643 lets a service provider do.
 */

export const MAX_EXTERNAL_ID = 1000;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own attribute of an object by name, compared case-insensitively (as SCIM compares them). */
export function attr(object: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(object, name)) return object[name];
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/** `true`/`false`, or Entra's `"True"`/`"False"` strings; anything else is a 400 invalidValue. */
export function readBoolean(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
    return value.trim().toLowerCase() === 'true';
  throw scimError('scim_invalid_value', `${name} must be true or false`);
}

/** An externalId: text (at most MAX_EXTERNAL_ID characters) or null. */
export function readExternalId(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > MAX_EXTERNAL_ID || value.includes('\u0000'))
    throw scimError('scim_invalid_value', `externalId must be text of at most ${MAX_EXTERNAL_ID} characters`);
  return value;
}

function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw scimError('scim_invalid_value', `${name} must be a string`);
  return value.trim() === '' ? undefined : value;
}

/** The work address of `emails` (type work, else the primary one, else the first). */
function workEmail(emails: unknown): string | undefined {
  if (emails === undefined || emails === null) return undefined;
  if (!Array.isArray(emails)) throw scimError('scim_invalid_value', 'emails must be an array');
  const entries = emails.filter(isObject);
  const chosen =
    entries.find((e) => String(attr(e, 'type') ?? '').toLowerCase() === 'work') ??
    entries.find((e) => attr(e, 'primary') === true || String(attr(e, 'primary')).toLowerCase() === 'true') ??
    entries[0];
  return chosen ? optionalText(attr(chosen, 'value'), 'emails.value') : undefined;
}

export interface UserFields {
  email: string | undefined;
  /** The work address, when it differs from userName (a PATCH of emails alone changes the address). */
  workEmail: string | undefined;
  firstName: string | undefined;
  lastName: string | undefined;
  active: boolean | undefined;
  externalId: string | null | undefined;
  id: unknown;
}

/** What Vigil keeps of a SCIM User (a POST or PUT body, or a patched resource). */
export function readUser(resource: unknown): UserFields {
  if (!isObject(resource)) throw scimError('scim_invalid_syntax', 'The body must be a User object');
  const name = attr(resource, 'name');
  if (name !== undefined && name !== null && !isObject(name))
    throw scimError('scim_invalid_value', 'name must be an object');
  const displayName = optionalText(attr(resource, 'displayName'), 'displayName');
  const [displayFirst, ...displayRest] = (displayName ?? '').trim().split(/\s+/);
  const active = attr(resource, 'active');
  return {
    email: optionalText(attr(resource, 'userName'), 'userName'),
    workEmail: workEmail(attr(resource, 'emails')),
    firstName:
      (isObject(name) ? optionalText(attr(name, 'givenName'), 'name.givenName') : undefined) ??
      (displayFirst || undefined),
    lastName:
      (isObject(name) ? optionalText(attr(name, 'familyName'), 'name.familyName') : undefined) ??
      (displayRest.length > 0 ? displayRest.join(' ') : undefined),
    active: active === undefined || active === null ? undefined : readBoolean(active, 'active'),
    externalId: readExternalId(attr(resource, 'externalId')),
    id: attr(resource, 'id'),
  };
}

export interface GroupFields {
  displayName: string | undefined;
  externalId: string | null | undefined;
  /** Member ids as sent (strings), or undefined when `members` is absent. */
  members: string[] | undefined;
  id: unknown;
}

/** The ids of a `members` value: `[{value: "17"}, …]`. */
export function readMemberValues(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = isObject(member) ? attr(member, 'value') : undefined;
    if (typeof id !== 'string' && typeof id !== 'number')
      throw scimError('scim_invalid_value', 'Each member must be an object with a value (the user id)');
    return String(id);
  });
}

/** What Vigil keeps of a SCIM Group (a POST or PUT body). */
export function readGroup(resource: unknown): GroupFields {
  if (!isObject(resource)) throw scimError('scim_invalid_syntax', 'The body must be a Group object');
  const members = attr(resource, 'members');
  return {
    displayName: optionalText(attr(resource, 'displayName'), 'displayName'),
    externalId: readExternalId(attr(resource, 'externalId')),
    members: members === undefined || members === null ? undefined : readMemberValues(members),
    id: attr(resource, 'id'),
  };
}

/** A SCIM id as Vigil's number (0, which no row has, for anything else). */
export function idNumber(value: string): number {
  return /^[1-9][0-9]{0,15}$/.test(value) && Number(value) <= Number.MAX_SAFE_INTEGER ? Number(value) : 0;
}
