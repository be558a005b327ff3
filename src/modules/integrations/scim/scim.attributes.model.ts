import { type TSchema, Type } from '@sinclair/typebox';
import { GROUP_SCHEMA, USER_SCHEMA } from './scim.presenter.js';
import { ScimGroup, ScimUser } from './scim.schemas.js';

/**
 * The attributes a SCIM PATCH may name: exactly those of the resource as Vigil answers it (its
 * response schema, ScimUser or ScimGroup, which the serializer holds every answer to), so what a
 * PATCH can reach and what a GET shows cannot drift apart. A path or a value key naming anything
 * else is refused before anything is applied (scim.path.model.ts), and the applier (scim.patch.model.ts)
 * writes only these names, so no operation reaches an inherited property such as
 * `hasOwnProperty`.
 *
 * Two things are accepted beyond them, checked by name and then ignored: the rest of the core
 * User schema (RFC 7643 §4.1: `title`, `phoneNumbers`, `addresses`, `name.middleName`…), which
 * Microsoft Entra's default mappings send with every update, and the enterprise extension
 * (RFC 7643 §4.3). Refusing them would fail every update of an Entra app left as set up; any
 * other name is still refused.
 */

export interface ScimAttribute {
  /** The name as Vigil spells it (the key it has in the patched resource). */
  name: string;
  multiValued: boolean;
  /** Complex attributes: their sub-attributes, by lower-case name. */
  subAttributes?: AttributeMap;
  /** Sub-attributes of the core schema that Vigil does not keep: accepted, then ignored. */
  ignoredSubAttributes?: AttributeMap;
}

/** Attributes by lower-case name: SCIM compares attribute names case-insensitively. */
export type AttributeMap = ReadonlyMap<string, ScimAttribute>;

export interface ResourceAttributes {
  /** The resource's core schema URI, which a path may start with (`urn:…:User:userName`). */
  schema: string;
  /** What Vigil maps: the attributes it shows, each one applied by a PATCH. */
  mapped: AttributeMap;
  /** Attributes of the core schema that Vigil does not keep: accepted, then ignored. */
  unmapped: AttributeMap;
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

const text = Type.String();
const multiValued = (extra: Record<string, TSchema> = {}) =>
  Type.Array(Type.Object({ value: text, display: text, type: text, primary: Type.Boolean(), ...extra }));

/** RFC 7643 §4.1: the core User schema, all of it (Vigil keeps what ScimUser shows). */
const CoreUser = Type.Object({
  userName: text,
  name: Type.Object({
    formatted: text,
    familyName: text,
    givenName: text,
    middleName: text,
    honorificPrefix: text,
    honorificSuffix: text,
  }),
  displayName: text,
  nickName: text,
  profileUrl: text,
  title: text,
  userType: text,
  preferredLanguage: text,
  locale: text,
  timezone: text,
  active: Type.Boolean(),
  password: text,
  emails: multiValued(),
  phoneNumbers: multiValued(),
  ims: multiValued(),
  photos: multiValued(),
  addresses: Type.Array(
    Type.Object({
      formatted: text,
      streetAddress: text,
      locality: text,
      region: text,
      postalCode: text,
      country: text,
      type: text,
      primary: Type.Boolean(),
    }),
  ),
  groups: multiValued({ $ref: text }),
  entitlements: multiValued(),
  roles: multiValued(),
  x509Certificates: multiValued(),
  externalId: text,
});

/**
 * The mapped attributes, each with the core sub-attributes it does not keep, and the core
 * attributes Vigil does not map at all.
 */
function splitCore(
  mapped: AttributeMap,
  core: AttributeMap,
): Pick<ResourceAttributes, 'mapped' | 'unmapped'> {
  const withIgnored = new Map<string, ScimAttribute>();
  for (const [key, attribute] of mapped) {
    const subs = core.get(key)?.subAttributes;
    const ignoredSubs = subs && new Map([...subs].filter(([sub]) => !attribute.subAttributes?.has(sub)));
    withIgnored.set(key, ignoredSubs?.size ? { ...attribute, ignoredSubAttributes: ignoredSubs } : attribute);
  }
  return { mapped: withIgnored, unmapped: new Map([...core].filter(([key]) => !mapped.has(key))) };
}

export const USER_ATTRIBUTES: ResourceAttributes = {
  schema: USER_SCHEMA,
  ...splitCore(attributesOf(ScimUser), attributesOf(CoreUser)),
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
  unmapped: new Map(),
  ignored: new Map(),
};
