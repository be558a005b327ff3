import type { Filter } from 'scim2-parse-filter';
import type { AttributeMap, ResourceAttributes, ScimAttribute } from './scim.attributes.model.js';
import { scimError } from './scim.errors.model.js';
import { parseFilter } from './scim.filter.model.js';

/**
 * PATCH paths (RFC 7644 §3.5.2: `[schema:]attr[.sub]` or `[schema:]attr[filter][.sub]`) read
 * against the attributes a resource has (scim.attributes.model.ts): every name, in the path and in its
 * value filter, must be one of them (compared case-insensitively), else 400 invalidPath. Reading
 * is linear: one scan of the path (at most MAX_PATH_LENGTH characters), one parse of the filter.
 */

export const MAX_PATH_LENGTH = 1000;

/** A value filter comparison `sub op value`: what a path filter may hold, with and, or, not. */
const COMPARISONS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'pr']);

export interface ValueFilter {
  filter: Filter;
  /** The filter's text, as sent (the groups service reads member ids from it). */
  text: string;
  /** A filter that is one `sub eq value`: the entry a missing target is added as. */
  equality?: { attribute: ScimAttribute; value: string | number | boolean | null };
}

/** Where an operation applies: an attribute Vigil maps (with a filter or sub-attribute), or an ignored one. */
export type PathTarget =
  | { kind: 'mapped'; attribute: ScimAttribute; filter?: ValueFilter; sub?: ScimAttribute; label: string }
  | { kind: 'ignored'; label: string; extension?: AttributeMap };

const NAME = /^\$?[A-Za-z][A-Za-z0-9_-]*/;
const shown = (text: string) => text.slice(0, 100);
const unsupported = (what: string) => scimError('scim_invalid_path', `Unsupported attribute: ${shown(what)}`);

function lookUp(attributes: AttributeMap, name: string, label: string): ScimAttribute {
  const found = attributes.get(name.toLowerCase());
  if (!found) throw unsupported(label);
  return found;
}

/** The extension schema a path starts with (or is), and the rest of the path after its `:`. */
function extensionOf(path: string, resource: ResourceAttributes) {
  const lower = path.toLowerCase();
  for (const [uri, extension] of resource.ignored) {
    if (lower === uri) return { extension, rest: '' };
    if (lower.startsWith(`${uri}:`)) return { extension, rest: path.slice(uri.length + 1) };
  }
  return undefined;
}

/** Every attribute a filter compares is a sub-attribute of `attribute`; only comparisons, and, or, not. */
function checkFilter(node: Filter, attribute: ScimAttribute, label: string): void {
  if (node.op === 'and' || node.op === 'or') {
    if ('filters' in node) for (const inner of node.filters) checkFilter(inner, attribute, label);
  } else if (node.op === 'not') {
    if ('filter' in node) checkFilter(node.filter, attribute, label);
  } else if (COMPARISONS.has(node.op) && 'attrPath' in node) {
    lookUp(attribute.subAttributes as AttributeMap, node.attrPath, `${attribute.name}.${node.attrPath}`);
  } else
    throw scimError(
      'scim_invalid_filter',
      `Unsupported filter in ${shown(label)}: use eq, ne, co, sw, ew or pr, joined by and, or, not`,
    );
}

function readFilter(text: string, attribute: ScimAttribute, label: string): ValueFilter {
  if (!attribute.multiValued || !attribute.subAttributes)
    throw scimError('scim_invalid_path', `${attribute.name} holds no list to filter: ${shown(label)}`);
  const filter = parseFilter(text);
  checkFilter(filter, attribute, label);
  const single =
    filter.op === 'eq' && 'compValue' in filter
      ? {
          attribute: lookUp(attribute.subAttributes, filter.attrPath, label),
          value: filter.compValue,
        }
      : undefined;
  return { filter, text, ...(single && { equality: single }) };
}

/** The target of a path (or of a path-less value's key) in a resource, or a 400 saying what is wrong. */
export function readPath(path: string, resource: ResourceAttributes): PathTarget {
  if (path.length > MAX_PATH_LENGTH) throw scimError('scim_invalid_path', `Unsupported path: ${shown(path)}`);
  const extension = extensionOf(path, resource);
  if (extension) {
    const { attributes } = extension.extension;
    // The extension itself: its attributes come as the keys of an object value (checkIgnoredValue).
    if (extension.rest === '') return { kind: 'ignored', label: path, extension: attributes };
    const [name = '', sub, ...deeper] = extension.rest.split('.');
    const attribute = lookUp(attributes, name, path);
    if (sub !== undefined) lookUp(attribute.subAttributes ?? new Map(), sub, path);
    if (deeper.length > 0) throw unsupported(path);
    return { kind: 'ignored', label: path };
  }
  const corePrefix = `${resource.schema.toLowerCase()}:`;
  const rest = path.toLowerCase().startsWith(corePrefix) ? path.slice(corePrefix.length) : path;

  const name = NAME.exec(rest)?.[0];
  if (name === undefined) throw unsupported(path);
  const unmapped = resource.mapped.has(name.toLowerCase())
    ? undefined
    : resource.unmapped.get(name.toLowerCase());
  const attribute = unmapped ?? lookUp(resource.mapped, name, path);
  let at = name.length;
  let filter: ValueFilter | undefined;
  if (rest[at] === '[') {
    // The filter ends at the last `]`: only `.sub` (which holds none) may follow it.
    const close = rest.lastIndexOf(']');
    if (close < at) throw scimError('scim_invalid_path', `Unclosed filter: ${shown(path)}`);
    filter = readFilter(rest.slice(at + 1, close), attribute, path);
    at = close + 1;
  }
  let sub: ScimAttribute | undefined;
  if (rest[at] === '.') {
    const subName = NAME.exec(rest.slice(at + 1))?.[0];
    if (subName === undefined || at + 1 + subName.length !== rest.length) throw unsupported(path);
    // A core sub-attribute Vigil does not keep (`name.middleName`): accepted, then ignored.
    if (attribute.ignoredSubAttributes?.has(subName.toLowerCase())) return { kind: 'ignored', label: path };
    sub = lookUp(attribute.subAttributes ?? new Map(), subName, path);
  } else if (at !== rest.length) throw unsupported(path);
  if (unmapped) return { kind: 'ignored', label: path };
  return { kind: 'mapped', attribute, label: path, ...(filter && { filter }), ...(sub && { sub }) };
}

/** The value of a whole extension (`{"urn:…:enterprise:2.0:User": {department: …}}`) names only its attributes. */
export function checkIgnoredValue(target: PathTarget, value: unknown): void {
  if (target.kind !== 'ignored' || !target.extension || value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value))
    throw scimError('scim_invalid_value', `${shown(target.label)} must be an object`);
  for (const key of Object.keys(value)) lookUp(target.extension, key, `${target.label}:${key}`);
}

const folded = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/**
 * Whether an entry of a multi-valued attribute (a null-prototype object with Vigil's spelling of
 * the sub-attributes) matches a checked filter. Text compares case-insensitively: none of the
 * sub-attributes Vigil maps is case-exact.
 */
export function matchesFilter(
  entry: Record<string, unknown>,
  node: Filter,
  attribute: ScimAttribute,
): boolean {
  if (node.op === 'and' && 'filters' in node)
    return node.filters.every((f) => matchesFilter(entry, f, attribute));
  if (node.op === 'or' && 'filters' in node)
    return node.filters.some((f) => matchesFilter(entry, f, attribute));
  if (node.op === 'not' && 'filter' in node) return !matchesFilter(entry, node.filter, attribute);
  if (!('attrPath' in node)) return false;
  const sub = attribute.subAttributes?.get(node.attrPath.toLowerCase());
  const actual = sub && Object.hasOwn(entry, sub.name) ? folded(entry[sub.name]) : undefined;
  if (node.op === 'pr') return actual !== undefined && actual !== null;
  if (!('compValue' in node)) return false;
  const expected = folded(node.compValue);
  if (node.op === 'eq') return actual === expected;
  if (node.op === 'ne') return actual !== expected;
  if (typeof actual !== 'string' || typeof expected !== 'string') return false;
  if (node.op === 'co') return actual.includes(expected);
  if (node.op === 'sw') return actual.startsWith(expected);
  return node.op === 'ew' && actual.endsWith(expected);
}
