import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createScimToken } from '../../src/modules/integrations/scim/scim.tokens.service.js';
import { makeAccount } from './factories.js';

/** A SCIM token of an account (a new account unless given). */
export async function makeScimToken(app: FastifyInstance, accountId?: number) {
  const account = accountId ?? (await makeAccount(app)).id;
  const created = await createScimToken(app.db, { accountId: account, name: 'Okta' });
  return { accountId: account, tokenId: created.id, token: created.token };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Requests to `/scim/v2` as an identity provider sends them: bearer token, `application/scim+json`. */
export function scimClient(app: FastifyInstance, token: string) {
  const send = (method: Method, path: string, body?: unknown): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url: `/scim/v2${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/scim+json',
        ...(body !== undefined && { 'content-type': 'application/scim+json; charset=utf-8' }),
      },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown) => send('POST', path, body),
    put: (path: string, body: unknown) => send('PUT', path, body),
    patch: (path: string, body: unknown) => send('PATCH', path, body),
    delete: (path: string) => send('DELETE', path),
  };
}

export type ScimClient = ReturnType<typeof scimClient>;

/** A SCIM error body: status as a string, the error schema, and the scimType when given. */
export function scimErrorOf(status: number, scimType?: string) {
  return {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    ...(scimType && { scimType }),
    detail: expect.any(String),
  };
}

/** `filter=…` as identity providers encode it. */
export const filter = (text: string) => `filter=${encodeURIComponent(text)}`;

import { expect } from 'vitest';
