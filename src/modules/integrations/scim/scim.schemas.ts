import { type TSchema, Type } from '@sinclair/typebox';
import { PathId } from '../../../core/http/schemas.js';

/**
 * Request and response schemas of `/scim/v2/`. Bodies are read by the SCIM service itself
 * (scim.resources.presenter.ts, scim.patch.model.ts): SCIM attribute names are case-insensitive and identity
 * providers send much that Vigil does not keep, so the body schema only asks for an object, and
 * a wrong body is a SCIM error, not a validation error of the Customer API's shape.
 */

const Meta = Type.Object({
  resourceType: Type.String(),
  created: Type.Optional(Type.String()),
  lastModified: Type.Optional(Type.String()),
  location: Type.String(),
  version: Type.Optional(Type.String()),
});

const Schemas = Type.Array(Type.String());

export const ScimUser = Type.Object(
  {
    schemas: Schemas,
    id: Type.String(),
    externalId: Type.Optional(Type.String()),
    userName: Type.Optional(Type.String()),
    name: Type.Optional(
      Type.Object({ givenName: Type.String(), familyName: Type.String(), formatted: Type.String() }),
    ),
    displayName: Type.Optional(Type.String()),
    emails: Type.Optional(
      Type.Array(Type.Object({ value: Type.String(), type: Type.String(), primary: Type.Boolean() })),
    ),
    active: Type.Optional(Type.Boolean()),
    meta: Meta,
  },
  { title: 'ScimUser' },
);

export const ScimGroup = Type.Object(
  {
    schemas: Schemas,
    id: Type.String(),
    externalId: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    members: Type.Optional(
      Type.Array(
        Type.Object({
          value: Type.String(),
          display: Type.String(),
          $ref: Type.String(),
          type: Type.String(),
        }),
      ),
    ),
    meta: Meta,
  },
  { title: 'ScimGroup' },
);

export const ListOfResources = <T extends TSchema>(resource: T) =>
  Type.Object({
    schemas: Schemas,
    totalResults: Type.Integer(),
    startIndex: Type.Integer(),
    itemsPerPage: Type.Integer(),
    Resources: Type.Array(resource),
  });

/** The discovery documents are fixed texts of this module (scim.discovery.presenter.ts). */
export const Document = Type.Object({}, { additionalProperties: true });

export const ScimBody = Type.Unknown();

export const ResourceParams = Type.Object({ id: PathId({ description: 'The resource id.' }) });

export const ListQuery = Type.Object({
  filter: Type.Optional(Type.String()),
  startIndex: Type.Optional(Type.String()),
  count: Type.Optional(Type.String()),
  attributes: Type.Optional(Type.String()),
  excludedAttributes: Type.Optional(Type.String()),
});

export const ProjectionQuery = Type.Object({
  attributes: Type.Optional(Type.String()),
  excludedAttributes: Type.Optional(Type.String()),
});
