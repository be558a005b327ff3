import { type Filter, parse } from 'scim2-parse-filter';
import { scimError } from './scim.errors.model.js';

/**
 * SCIM filters (RFC 7644 §3.4.2.2), parsed by scim2-parse-filter and turned into the few look-ups
 * identity providers make: Okta and Microsoft Entra only ever send `eq` comparisons, joined by
 * `and`, on the attributes that identify a user or a group. Anything else is a 400
 * `invalidFilter` that says what is supported, never a 5xx: the parser throws plain Errors (and
 * accepts some text that is no filter), so its answer is checked here, node by node.
 */

export const MAX_FILTER_LENGTH = 1000;

/** What a user filter asks for; all given keys must hold. `none`: it can match nobody. */
export interface UserCriteria {
  email?: string;
  externalId?: string;
  id?: string;
  active?: boolean;
  none?: true;
}

export interface GroupCriteria {
  displayName?: string;
  externalId?: string;
  id?: string;
  none?: true;
}

const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:user:';
const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:group:';

/** An attribute path, compared as SCIM compares them: case aside, with or without its schema. */
function attribute(path: string): string {
  const lower = path.toLowerCase();
  for (const prefix of [CORE_USER, CORE_GROUP])
    if (lower.startsWith(prefix)) return lower.slice(prefix.length);
  return lower;
}

/**
 * A filter's tree, or a 400 invalidFilter. Control characters are refused before the parser sees
 * them: no filter holds one (JSON strings cannot), and the parser's pattern for quoted text
 * backtracks exponentially on line feeds (about 30 take seconds, 40 would take hours).
 */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH)
    throw scimError('scim_invalid_filter', `The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  if (/[\u0000-\u001f]/.test(text))
    throw scimError('scim_invalid_filter', 'A filter holds no control characters (line breaks, tabs…)');
  try {
    return parse(text);
  } catch {
    throw scimError('scim_invalid_filter', 'The filter could not be parsed (RFC 7644 §3.4.2.2)');
  }
}

const unsupported = (what: string) =>
  scimError('scim_invalid_filter', `Unsupported filter: ${what}. Supported: eq comparisons joined by and`);

/** Adds `key = value` to the criteria; two different values for one key match nothing. */
function withCriterion<C extends { none?: true }>(
  criteria: C,
  key: Exclude<keyof C, 'none'>,
  value: unknown,
): C {
  const current = criteria[key];
  if (current !== undefined && current !== value) return { ...criteria, none: true };
  return { ...criteria, [key]: value };
}

/** The terms of a filter joined by `and` (nested `and`s flattened). */
function terms(filter: Filter): Filter[] {
  if (filter.op === 'and' && 'filters' in filter) return filter.filters.flatMap(terms);
  return [filter];
}

function text(value: unknown, attr: string): string {
  if (typeof value !== 'string') throw unsupported(`${attr} compared with a non-string value`);
  return value;
}

/** The user criteria a filter states (`userName eq`, `externalId eq`, `emails[type eq "work"].value eq`, `id eq`, `active eq`). */
export function userCriteria(filterText: string): UserCriteria {
  let criteria: UserCriteria = {};
  for (const term of terms(parseFilter(filterText))) {
    if (term.op === '[]' && 'valFilter' in term) {
      // emails[type eq "work"] (the address is compared by the term beside it) or emails[value eq "…"].
      if (attribute(term.attrPath) !== 'emails') throw unsupported(`${term.attrPath}[…]`);
      for (const inner of terms(term.valFilter)) {
        if (inner.op !== 'eq' || !('compValue' in inner)) throw unsupported(`emails[${inner.op} …]`);
        const attr = attribute(inner.attrPath);
        if (attr === 'type') {
          if (String(inner.compValue).toLowerCase() !== 'work') criteria = { ...criteria, none: true };
        } else if (attr === 'value')
          criteria = withCriterion(criteria, 'email', text(inner.compValue, 'emails.value'));
        else if (attr !== 'primary') throw unsupported(`emails[${inner.attrPath} …]`);
      }
      continue;
    }
    if (term.op !== 'eq' || !('compValue' in term)) throw unsupported(`the operator ${term.op}`);
    const attr = attribute(term.attrPath);
    const value = term.compValue;
    if (attr === 'username' || attr === 'emails.value' || attr === 'emails')
      criteria = withCriterion(criteria, 'email', text(value, term.attrPath));
    else if (attr === 'externalid')
      criteria = withCriterion(criteria, 'externalId', text(value, term.attrPath));
    else if (attr === 'id') criteria = withCriterion(criteria, 'id', text(value, term.attrPath));
    else if (attr === 'active') {
      if (typeof value !== 'boolean') throw unsupported('active compared with a non-boolean value');
      criteria = withCriterion(criteria, 'active', value);
    } else throw unsupported(`the attribute ${term.attrPath}`);
  }
  return criteria;
}

/** The group criteria a filter states (`displayName eq`, `externalId eq`, `id eq`). */
export function groupCriteria(filterText: string): GroupCriteria {
  let criteria: GroupCriteria = {};
  for (const term of terms(parseFilter(filterText))) {
    if (term.op !== 'eq' || !('compValue' in term)) throw unsupported(`the operator ${term.op}`);
    const attr = attribute(term.attrPath);
    if (attr === 'displayname')
      criteria = withCriterion(criteria, 'displayName', text(term.compValue, 'displayName'));
    else if (attr === 'externalid')
      criteria = withCriterion(criteria, 'externalId', text(term.compValue, 'externalId'));
    else if (attr === 'id') criteria = withCriterion(criteria, 'id', text(term.compValue, 'id'));
    else throw unsupported(`the attribute ${term.attrPath}`);
  }
  return criteria;
}

/**
 * The member ids a PATCH path's value filter names: `members[value eq "17"]`, or several joined
 * by `or` (Okta sends one; some clients join them). Anything else is a 400 invalidFilter.
 */
export function memberIdsOfValueFilter(filterText: string): string[] {
  const ids: string[] = [];
  const visit = (node: Filter) => {
    if (node.op === 'or' && 'filters' in node) node.filters.forEach(visit);
    else if (node.op === 'eq' && 'compValue' in node && attribute(node.attrPath) === 'value')
      ids.push(String(node.compValue));
    else throw scimError('scim_invalid_filter', 'A members filter must be value eq "…" (joined by or)');
  };
  visit(parseFilter(filterText));
  return ids;
}
