import {
  InvalidScimPatchOp,
  NoTarget,
  type ScimPatchOperation,
  type ScimResource,
  scimPatch,
} from 'scim-patch';
import { scimError } from './scim.errors.js';

/**
 * SCIM PATCH (RFC 7644 §3.5.2) over scim-patch, fixed around what identity providers send that
 * it does not take as is:
 * - op names in any case (Microsoft Entra sends `Add`, `Replace`, `Remove`; scim-patch takes only
 *   those two spellings, and a path-less `Remove` slips past its validation into a TypeError);
 * - attribute names in any case (SCIM compares them case-insensitively; scim-patch does not);
 * - string booleans (`"active": "False"`, Entra) are left for the mapping to read (scim-patch
 *   copies values as they are);
 * - `__proto__`, `constructor` and `prototype` anywhere in a path or a value's keys are refused:
 *   scim-patch walks paths with plain property access, and `{"__proto__.x": 1}` would reach
 *   Object.prototype;
 * - its errors (and any other throw) become SCIM errors: 400 invalidPath, noTarget or
 *   invalidValue, never a 5xx.
 * Group membership is not patched here (see scim.groups.service.ts): a group's members are
 * changed through the groups service without reading them all.
 */

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const MAX_OPERATIONS = 1000;

export type PatchOp = 'add' | 'remove' | 'replace';

export interface PatchOperation {
  op: PatchOp;
  path?: string;
  value?: unknown;
}

const FORBIDDEN_KEYS = /(^|[^A-Za-z0-9_$])(__proto__|constructor|prototype)([^A-Za-z0-9_$]|$)/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** No key of `value` (at any depth) may name an object's prototype. */
function checkKeys(value: unknown, depth = 0): void {
  if (depth > 20) throw scimError('scim_invalid_value', 'The value is nested too deeply');
  if (Array.isArray(value)) for (const item of value) checkKeys(item, depth + 1);
  else if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.test(key)) throw scimError('scim_invalid_path', `Unsupported attribute: ${key}`);
      checkKeys(inner, depth + 1);
    }
  }
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
    if (typeof path === 'string' && (path.length > 1000 || FORBIDDEN_KEYS.test(path)))
      throw scimError('scim_invalid_path', `Unsupported path: ${path.slice(0, 100)}`);
    if (op === 'remove' && typeof path !== 'string')
      throw scimError('scim_no_target', `Operations[${index}]: remove needs a path`);
    if (op !== 'remove' && !('value' in raw))
      throw scimError('scim_invalid_value', `Operations[${index}]: ${op} needs a value`);
    if (op !== 'remove' && typeof path !== 'string' && !isObject(raw.value))
      throw scimError(
        'scim_invalid_value',
        `Operations[${index}]: ${op} without a path needs an object value`,
      );
    checkKeys(raw.value);
    return {
      op,
      ...(typeof path === 'string' && { path: path.trim() }),
      ...('value' in raw && { value: raw.value }),
    };
  });
}

/** Attribute names of a resource, by their lower-case spelling. */
export type AttributeNames = ReadonlyMap<string, string>;

export function attributeNames(names: string[]): AttributeNames {
  return new Map(names.map((name) => [name.toLowerCase(), name]));
}

/** A path with every attribute name outside quotes spelled as the resource spells it. */
export function canonicalPath(path: string, names: AttributeNames): string {
  return path.replace(/"(?:[^"\\]|\\.)*"|[A-Za-z$][A-Za-z0-9_$-]*/g, (token) =>
    token.startsWith('"') ? token : (names.get(token.toLowerCase()) ?? token),
  );
}

/** A path-less operation's value with its keys (dotted ones included) spelled as the resource spells them. */
function canonicalValue(value: unknown, names: AttributeNames): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [canonicalPath(key, names), canonicalValue(inner, names)]),
  );
}

/** Applies the operations to a copy of the resource; any failure is a 400 in SCIM's terms. */
export function applyPatch<T extends object>(
  resource: T,
  operations: PatchOperation[],
  names: AttributeNames,
): T {
  const ops = operations.map(
    (operation) =>
      ({
        op: operation.op,
        ...(operation.path !== undefined && { path: canonicalPath(operation.path, names) }),
        ...('value' in operation && {
          value: operation.path === undefined ? canonicalValue(operation.value, names) : operation.value,
        }),
      }) as ScimPatchOperation,
  );
  try {
    return scimPatch(resource as unknown as ScimResource, ops, {
      mutateDocument: false,
      treatMissingAsAdd: true,
    }) as unknown as T;
  } catch (err) {
    if (err instanceof NoTarget) throw scimError('scim_no_target', 'The path selects no value');
    if (err instanceof InvalidScimPatchOp)
      throw scimError('scim_invalid_path', 'The path cannot be followed');
    throw scimError('scim_invalid_value', 'The operation cannot be applied to this resource');
  }
}
