import { type TSchema, Type } from '@sinclair/typebox';
import { GROUP_SCHEMA, USER_SCHEMA } from './scim.presenter.js';
import { ScimGroup, ScimUser } from './scim.schemas.js';

/**
 * The attributes a SCIM PATCH may name: exactly those of the resource as Vigil answers it (its
 * response schema, ScimUser or ScimGroup, which the serializer holds every answer to), so what a
 * PATCH can reach and what a GET shows cannot drift apart. A path or a value key naming anything
 * else is refused before anything is applied (scim.path.ts), and the applier (scim.patch.ts)
 * writes only these names, so no operation reaches an inherited property such as
 * `hasOwnProperty`.
 *
 * The enterprise extension (RFC 7643 §4.3) is the one thing accepted beyond them: Microsoft Entra
 * sends its attributes with every update, and Vigil keeps none of them, so they are checked by
 * name and then ignored.
 */

export interface ScimAttribute {
  /** The name as Vigil spells it (the key it has in the patched resource). */
  name: string;
  multiValued: boolean;
  /** Complex attributes: their sub-attributes, by lower-case name. */
  subAttributes?: AttributeMap;
}

/** Attributes by lower-case name: SCIM compares attribute names case-insensitively. */
export type AttributeMap = ReadonlyMap<string, ScimAttribute>;

export interface ResourceAttributes {
  /** The resource's core schema URI, which a path may start with (`urn:…:User:userName`). */
  schema: string;
  /** What Vigil maps: the attributes it shows, each one applied by a PATCH. */
  mapped: AttributeMap;
  /** Extension schemas whose attributes are accepted and ignored, by lower-case URI. */
  ignored: ReadonlyMap<string, { uri: string; attributes: AttributeMap }>;
}

interface JsonSchemaNode {
  type?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
}

/** The attributes of a TypeBox object schema: objects are complex, arrays multi-valued. */
function attributesOf(schema: TSchema): AttributeMap {
  const properties = (schema as JsonSchemaNode).properties ?? {};
  const map = new Map<string, ScimAttribute>();
  for (const [name, node] of Object.entries(properties)) {
    const multiValued = node.type === 'array';
    const item = multiValued ? (node.items ?? {}) : node;
    const subAttributes = item.type === 'object' ? attributesOf(item as TSchema) : undefined;
    map.set(name.toLowerCase(), { name, multiValued, ...(subAttributes && { subAttributes }) });
  }
  return map;
}

export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** RFC 7643 §4.3: the enterprise User extension's attributes (none of which Vigil keeps). */
const EnterpriseUser = Type.Object({
  employeeNumber: Type.String(),
  costCenter: Type.String(),
  organization: Type.String(),
  division: Type.String(),
  department: Type.String(),
  manager: Type.Object({ value: Type.String(), $ref: Type.String(), displayName: Type.String() }),
});

export const USER_ATTRIBUTES: ResourceAttributes = {
  schema: USER_SCHEMA,
  mapped: attributesOf(ScimUser),
  ignored: new Map([
    [
      ENTERPRISE_USER_SCHEMA.toLowerCase(),
      { uri: ENTERPRISE_USER_SCHEMA, attributes: attributesOf(EnterpriseUser) },
    ],
  ]),
};

export const GROUP_ATTRIBUTES: ResourceAttributes = {
  schema: GROUP_SCHEMA,
  mapped: attributesOf(ScimGroup),
  ignored: new Map(),
};
