import type { ResourceAttributes, ScimAttribute } from './scim.attributes.model.js';
import { scimError } from './scim.errors.model.js';
import { checkIgnoredValue, matchesFilter, type PathTarget, readPath } from './scim.path.model.js';

/**
 * SCIM PATCH (RFC 7644 §3.5.2), applied by Vigil's own code to the few attributes it maps:
 * - op names in any case (Microsoft Entra sends `Add`, `Replace`, `Remove`);
 * - every path, and every key of a path-less value (dotted, `urn:…:`-prefixed), is read against
 *   the resource's attributes (scim.attributes.model.ts, scim.path.model.ts): an unknown one is a 400
 *   invalidPath and nothing is applied;
 * - operations apply to a copy made only of null-prototype objects, arrays and plain values, keyed
 *   by Vigil's spelling of the attributes: no name a client sends is ever used as a key, so no
 *   operation reads or writes an inherited property (`hasOwnProperty.call`, `__proto__`…);
 * - string booleans (`"active": "False"`, Entra) are left for the mapping to read.
 * Group membership is not patched here (see scim.groups.service.ts): a group's members are
 * changed through the groups service without reading them all.
 */

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const MAX_OPERATIONS = 1000;
/** At most this many values in one multi-valued attribute (Vigil keeps one address): filters stay cheap. */
export const MAX_VALUES = 100;

export type PatchOp = 'add' | 'remove' | 'replace';

export interface PatchOperation {
  op: PatchOp;
  path?: string;
  value?: unknown;
}

/** An operation with its target read: what a path-less value's keys become, one each. */
export interface TargetedOperation {
  op: PatchOp;
  target: PathTarget;
  value?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads and checks a PATCH body: `{schemas: [PatchOp], Operations: [{op, path?, value?}]}`. */
export function readPatchBody(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw scimError('scim_invalid_syntax', 'The body must be a PatchOp object');
  const schemas = body.schemas;
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(PATCH_SCHEMA)))
    throw scimError('scim_invalid_syntax', `schemas must include ${PATCH_SCHEMA}`);
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0)
    throw scimError('scim_invalid_syntax', 'Operations must be a non-empty array');
  if (operations.length > MAX_OPERATIONS)
    throw scimError('scim_invalid_syntax', `At most ${MAX_OPERATIONS} operations a request`);
  return operations.map((raw, index) => {
    if (!isObject(raw)) throw scimError('scim_invalid_syntax', `Operations[${index}] must be an object`);
    const op = typeof raw.op === 'string' ? raw.op.toLowerCase() : undefined;
    if (op !== 'add' && op !== 'remove' && op !== 'replace')
      throw scimError('scim_invalid_syntax', `Operations[${index}].op must be add, remove or replace`);
    const path = raw.path;
    if (path !== undefined && path !== null && (typeof path !== 'string' || path.trim() === ''))
      throw scimError('scim_invalid_path', `Operations[${index}].path must be a non-empty string`);
    if (op === 'remove' && typeof path !== 'string')
      throw scimError('scim_no_target', `Operations[${index}]: remove needs a path`);
    if (op !== 'remove' && !('value' in raw))
      throw scimError('scim_invalid_value', `Operations[${index}]: ${op} needs a value`);
    if (op !== 'remove' && typeof path !== 'string' && !isObject(raw.value))
      throw scimError(
        'scim_invalid_value',
        `Operations[${index}]: ${op} without a path needs an object value`,
      );
    return {
      op,
      ...(typeof path === 'string' && { path: path.trim() }),
      ...('value' in raw && { value: raw.value }),
    };
  });
}

/**
 * Every operation's target, read before anything is applied. A path-less add or replace is one
 * operation per key of its value (RFC 7644 §3.5.2.1 and .3: the value's attributes are added or
 * replaced as if each were named by a path).
 */
export function targetOperations(
  operations: PatchOperation[],
  resource: ResourceAttributes,
): TargetedOperation[] {
  const targeted = operations.flatMap((operation): TargetedOperation[] => {
    if (operation.path !== undefined) return [{ ...operation, target: readPath(operation.path, resource) }];
    return Object.entries(operation.value as Record<string, unknown>).map(([key, value]) => ({
      op: operation.op,
      target: readPath(key, resource),
      value,
    }));
  });
  for (const { op, target, value } of targeted) if (op !== 'remove') checkIgnoredValue(target, value);
  return targeted;
}

type Entry = Record<string, unknown>;
/** A resource, or a complex value, as the applier holds it: no prototype to reach. */
const blank = (): Entry => Object.create(null);

function plainValue(value: unknown, label: string): unknown {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
  throw scimError('scim_invalid_value', `${label.slice(0, 100)} must be a single value`);
}

/** A complex value: only the attribute's sub-attributes, spelled as Vigil spells them. */
function complexValue(value: unknown, attribute: ScimAttribute, label: string): Entry {
  if (!isObject(value)) throw scimError('scim_invalid_value', `${label.slice(0, 100)} must be an object`);
  const entry = blank();
  for (const [key, inner] of Object.entries(value)) {
    const sub = attribute.subAttributes?.get(key.toLowerCase());
    if (!sub && attribute.ignoredSubAttributes?.has(key.toLowerCase())) continue;
    if (!sub)
      throw scimError('scim_invalid_path', `Unsupported attribute: ${`${label}.${key}`.slice(0, 100)}`);
    entry[sub.name] = plainValue(inner, `${label}.${key}`);
  }
  return entry;
}

function attributeValue(value: unknown, attribute: ScimAttribute, label: string): unknown {
  if (attribute.multiValued) {
    const list = Array.isArray(value) ? value : [value];
    if (list.length > MAX_VALUES)
      throw scimError('scim_invalid_value', `At most ${MAX_VALUES} values in ${attribute.name}`);
    return list.map((item) =>
      attribute.subAttributes ? complexValue(item, attribute, label) : plainValue(item, label),
    );
  }
  return attribute.subAttributes ? complexValue(value, attribute, label) : plainValue(value, label);
}

/** A copy of a resource as Vigil presents it, holding only the attributes it maps. */
export function patchableCopy(resource: object, attributes: ResourceAttributes): Entry {
  const copy = blank();
  for (const [key, value] of Object.entries(resource)) {
    const attribute = attributes.mapped.get(key.toLowerCase());
    if (attribute && value !== undefined) copy[attribute.name] = attributeValue(value, attribute, key);
  }
  return copy;
}

/** A value's identity in its list (its sub-attributes in Vigil's order), so that duplicates are found in one pass. */
function identity(value: unknown, attribute: ScimAttribute): string {
  if (!attribute.subAttributes) return JSON.stringify(value);
  const entry = value as Entry;
  return JSON.stringify([...attribute.subAttributes.values()].map((sub) => entry[sub.name] ?? null));
}

function listOf(resource: Entry, attribute: ScimAttribute): unknown[] {
  const list = resource[attribute.name];
  return Array.isArray(list) ? list : [];
}

function setList(resource: Entry, attribute: ScimAttribute, list: unknown[]): void {
  if (list.length > MAX_VALUES)
    throw scimError('scim_invalid_value', `At most ${MAX_VALUES} values in ${attribute.name}`);
  if (list.length === 0) delete resource[attribute.name];
  else resource[attribute.name] = list;
}

/** An operation on a whole attribute (`name`, `emails`, `active`), or on the resource through a path-less value. */
function applyToAttribute(
  resource: Entry,
  { op, value }: TargetedOperation,
  attribute: ScimAttribute,
  label: string,
) {
  if (op === 'remove' && attribute.multiValued && value !== undefined) {
    const removed = new Set(
      (attributeValue(value, attribute, label) as unknown[]).map((item) => identity(item, attribute)),
    );
    setList(
      resource,
      attribute,
      listOf(resource, attribute).filter((item) => !removed.has(identity(item, attribute))),
    );
  } else if (op === 'remove' || value === null) delete resource[attribute.name];
  else if (attribute.multiValued) {
    const incoming = attributeValue(value, attribute, label) as unknown[];
    if (op === 'replace') return setList(resource, attribute, incoming);
    const current = listOf(resource, attribute);
    const present = new Set(current.map((item) => identity(item, attribute)));
    setList(resource, attribute, [
      ...current,
      ...incoming.filter((item) => !present.has(identity(item, attribute))),
    ]);
  } else if (attribute.subAttributes) {
    // A complex attribute's sub-attributes left out of the value stay as they are (RFC 7644 §3.5.2.3).
    const current = resource[attribute.name] as Entry | undefined;
    resource[attribute.name] = Object.assign(current ?? blank(), complexValue(value, attribute, label));
  } else resource[attribute.name] = plainValue(value, label);
}

/** An operation on sub-attributes (`name.givenName`) or on values of a list (`emails[type eq "work"].value`). */
function applyWithin(
  resource: Entry,
  operation: TargetedOperation,
  target: Extract<PathTarget, { kind: 'mapped' }>,
) {
  const { attribute, filter, sub, label } = target;
  const { op, value } = operation;
  if (!attribute.multiValued) {
    // A sub-attribute of a single complex attribute (readPath allows no filter here).
    const current = (resource[attribute.name] as Entry | undefined) ?? blank();
    if (op === 'remove') delete current[(sub as ScimAttribute).name];
    else current[(sub as ScimAttribute).name] = plainValue(value, label);
    if (Object.keys(current).length > 0) resource[attribute.name] = current;
    else delete resource[attribute.name];
    return;
  }
  const list = listOf(resource, attribute) as Entry[];
  const selected = filter ? list.filter((entry) => matchesFilter(entry, filter.filter, attribute)) : list;
  if (op === 'remove') {
    const removed = new Set(selected);
    if (sub) for (const entry of selected) delete entry[sub.name];
    else
      setList(
        resource,
        attribute,
        list.filter((entry) => !removed.has(entry)),
      );
    return;
  }
  if (selected.length === 0) {
    // `emails[type eq "work"].value` on a user without one adds it (Entra sends replace for this);
    // any other filter that selects nothing has no target (RFC 7644 §3.5.2.3).
    if (!sub || (filter && !filter.equality))
      throw scimError('scim_no_target', `Nothing matches ${label.slice(0, 100)}`);
    const entry = blank();
    if (filter?.equality) entry[filter.equality.attribute.name] = filter.equality.value;
    entry[sub.name] = plainValue(value, label);
    return setList(resource, attribute, [...list, entry]);
  }
  const changes = sub ? undefined : complexValue(value, attribute, label);
  for (const entry of selected) {
    if (sub) entry[sub.name] = plainValue(value, label);
    else Object.assign(entry, changes);
  }
}

/**
 * Applies checked operations to a copy of the resource (as Vigil presents it) and returns the
 * copy; operations on ignored attributes change nothing.
 */
export function applyPatch(
  resource: object,
  operations: TargetedOperation[],
  attributes: ResourceAttributes,
): Entry {
  const patched = patchableCopy(resource, attributes);
  for (const operation of operations) {
    const { target } = operation;
    if (target.kind === 'ignored') continue;
    if (target.filter || target.sub) applyWithin(patched, operation, target);
    else applyToAttribute(patched, operation, target.attribute, target.label);
  }
  return patched;
}

/** `id` and `meta` are the service's to set: a PATCH may send them back unchanged, no more. */
export function checkReadOnly(shown: { id: string; meta?: unknown }, patched: Entry): void {
  if (String(patched.id) !== shown.id) throw scimError('scim_mutability', 'id cannot be changed');
  if (JSON.stringify(patched.meta) !== JSON.stringify(shown.meta))
    throw scimError('scim_mutability', 'meta cannot be changed');
}
