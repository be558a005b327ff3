import { GROUP_SCHEMA, USER_SCHEMA } from './scim.presenter.js';

/**
 * The discovery documents (RFC 7644 §4, RFC 7643 §5–7), stating exactly what this service does:
 * PATCH yes, bulk no, filters (eq joined by and, on the attributes listed in the README) with at
 * most MAX_RESULTS a page, no sorting, no password change, no ETags (meta.version is shown, but
 * If-Match is not honoured), a bearer token made in the Integration area.
 */

export const MAX_RESULTS = 200;

export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${base.replace(/\/scim\/v2$/, '')}/api/api_gateway/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description:
          'A SCIM token made by an administrator in the Integration area: Authorization: Bearer vgs_…',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  const type = (name: string, endpoint: string, schema: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: name,
    name,
    endpoint,
    description: name === 'User' ? 'An employee' : 'A group of employees',
    schema,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${name}` },
  });
  return [type('User', '/Users', USER_SCHEMA), type('Group', '/Groups', GROUP_SCHEMA)];
}

const attribute = (
  name: string,
  extra: Partial<{
    type: string;
    multiValued: boolean;
    required: boolean;
    caseExact: boolean;
    mutability: string;
    uniqueness: string;
    subAttributes: unknown[];
    description: string;
  }> = {},
) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function schemas(base: string) {
  const meta = (id: string) => ({ resourceType: 'Schema', location: `${base}/Schemas/${id}` });
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: USER_SCHEMA,
      name: 'User',
      description: 'An employee: userName is their email address',
      attributes: [
        attribute('userName', { required: true, uniqueness: 'server', description: 'The email address' }),
        attribute('name', {
          type: 'complex',
          subAttributes: [
            attribute('givenName', { required: true }),
            attribute('familyName', { required: true }),
            attribute('formatted', { mutability: 'readOnly' }),
          ],
        }),
        attribute('displayName', { mutability: 'readOnly' }),
        attribute('emails', {
          type: 'complex',
          multiValued: true,
          description: 'One, of type work: the same address as userName',
          subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
        }),
        attribute('active', {
          type: 'boolean',
          description: 'false: kept, but no longer trained or phished',
        }),
        attribute('externalId', { caseExact: true }),
      ],
      meta: meta(USER_SCHEMA),
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'A group of employees',
      attributes: [
        attribute('displayName', { required: true }),
        attribute('members', {
          type: 'complex',
          multiValued: true,
          subAttributes: [
            attribute('value', { mutability: 'immutable' }),
            attribute('display', { mutability: 'readOnly' }),
            attribute('$ref', { type: 'reference', mutability: 'immutable' }),
            attribute('type', { mutability: 'immutable', description: 'User' }),
          ],
        }),
        attribute('externalId', { caseExact: true }),
      ],
      meta: meta(GROUP_SCHEMA),
    },
  ];
}
