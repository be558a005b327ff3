import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { linkTo, publicBaseUrl } from '../../../core/http/links.js';
import { MAX_RESULTS, resourceTypes, schemas, serviceProviderConfig } from './scim.discovery.presenter.js';
import { scimError } from './scim.errors.model.js';
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listGroups,
  membersByGroup,
  patchScimGroup,
  replaceScimGroup,
} from './scim.groups.service.js';
import { listResponse, presentGroup, presentUser, projectAttributes } from './scim.presenter.js';
import {
  Document,
  ListOfResources,
  ListQuery,
  ProjectionQuery,
  ResourceParams,
  ScimBody,
  ScimGroup,
  ScimUser,
} from './scim.schemas.js';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './scim.users.service.js';

/** The base every SCIM location starts with: PUBLIC_URL (never the client's Host) and `/scim/v2`. */
export function scimBaseUrl(app: Parameters<typeof publicBaseUrl>[0]): string {
  return linkTo(publicBaseUrl(app), '/scim/v2');
}

/** `startIndex` (1-based; below 1 is 1) and `count` (0 to MAX_RESULTS; default MAX_RESULTS), RFC 7644 §3.4.2.4. */
function listWindow(query: { startIndex?: string; count?: string }) {
  const number = (value: string | undefined, name: string, fallback: number) => {
    if (value === undefined || value.trim() === '') return fallback;
    if (!/^\s*-?[0-9]{1,15}\s*$/.test(value))
      throw scimError('scim_invalid_value', `${name} must be an integer`);
    return Number(value);
  };
  return {
    startIndex: Math.max(1, number(query.startIndex, 'startIndex', 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, number(query.count, 'count', MAX_RESULTS))),
  };
}

function projection(query: { attributes?: string; excludedAttributes?: string }) {
  const names = (value: string | undefined) =>
    value === undefined
      ? undefined
      : value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
  return { attributes: names(query.attributes), excluded: names(query.excludedAttributes) };
}

const wantsMembers = (p: ReturnType<typeof projection>) =>
  !p.excluded?.some((n) => n.toLowerCase() === 'members') &&
  (p.attributes === undefined || p.attributes.some((n) => n.toLowerCase().split('.')[0] === 'members'));

/** The SCIM 2.0 endpoints (RFC 7644), relative to `/scim/v2`; scim.plugin.routes.ts authenticates them. */
export const scimRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const base = () => scimBaseUrl(app);
  const account = (request: FastifyRequest) => request.scim.accountId;
  const user = { 200: ScimUser, 201: ScimUser };
  const group = { 200: ScimGroup, 201: ScimGroup };

  app.get('/ServiceProviderConfig', { schema: { response: { 200: Document } } }, async () =>
    serviceProviderConfig(base()),
  );
  app.get('/ResourceTypes', { schema: { response: { 200: Document } } }, async () => {
    const types = resourceTypes(base());
    return listResponse(types, types.length, 1);
  });
  app.get('/Schemas', { schema: { response: { 200: Document } } }, async () => {
    const all = schemas(base());
    return listResponse(all, all.length, 1);
  });

  app.get(
    '/Users',
    { schema: { querystring: ListQuery, response: { 200: ListOfResources(ScimUser) } } },
    async (request) => {
      const window = listWindow(request.query);
      const { total, users } = await listUsers(app.db, account(request), request.query.filter, window);
      const p = projection(request.query);
      const resources = users.map((e) => projectAttributes(presentUser(e, base()), p));
      return listResponse(resources, total, window.startIndex);
    },
  );
  app.post('/Users', { schema: { body: ScimBody, response: user } }, async (request, reply) => {
    const created = presentUser(await createUser(app.db, account(request), request.body), base());
    return reply.code(201).header('location', created.meta.location).send(created);
  });
  app.get(
    '/Users/:id',
    { schema: { params: ResourceParams, querystring: ProjectionQuery, response: user } },
    async (request) =>
      projectAttributes(
        presentUser(await getUser(app.db, account(request), request.params.id), base()),
        projection(request.query),
      ),
  );
  app.put(
    '/Users/:id',
    { schema: { params: ResourceParams, body: ScimBody, response: user } },
    async (request) =>
      presentUser(await replaceUser(app.db, account(request), request.params.id, request.body), base()),
  );
  app.patch(
    '/Users/:id',
    { schema: { params: ResourceParams, body: ScimBody, response: user } },
    async (request) =>
      presentUser(await patchUser(app.db, account(request), request.params.id, request.body, base()), base()),
  );
  app.delete('/Users/:id', { schema: { params: ResourceParams } }, async (request, reply) => {
    await deleteUser(app.db, account(request), request.params.id);
    return reply.code(204).send();
  });

  app.get(
    '/Groups',
    { schema: { querystring: ListQuery, response: { 200: ListOfResources(ScimGroup) } } },
    async (request) => {
      const window = listWindow(request.query);
      const { total, groups } = await listGroups(app.db, account(request), request.query.filter, window);
      const p = projection(request.query);
      const members = wantsMembers(p)
        ? await membersByGroup(
            app.db,
            account(request),
            groups.map((g) => g.id),
          )
        : undefined;
      const resources = groups.map((g) => projectAttributes(presentGroup(g, base(), members?.get(g.id)), p));
      return listResponse(resources, total, window.startIndex);
    },
  );
  app.post('/Groups', { schema: { body: ScimBody, response: group } }, async (request, reply) => {
    const made = await createScimGroup(app.db, account(request), request.body);
    const members = await membersByGroup(app.db, account(request), [made.id]);
    const created = presentGroup(made, base(), members.get(made.id));
    return reply.code(201).header('location', created.meta.location).send(created);
  });
  app.get(
    '/Groups/:id',
    { schema: { params: ResourceParams, querystring: ProjectionQuery, response: group } },
    async (request) => {
      const found = await getScimGroup(app.db, account(request), request.params.id);
      const p = projection(request.query);
      const members = wantsMembers(p)
        ? (await membersByGroup(app.db, account(request), [found.id])).get(found.id)
        : undefined;
      return projectAttributes(presentGroup(found, base(), members), p);
    },
  );
  app.put(
    '/Groups/:id',
    { schema: { params: ResourceParams, body: ScimBody, response: group } },
    async (request) => {
      const saved = await replaceScimGroup(app.db, account(request), request.params.id, request.body);
      return presentGroup(
        saved,
        base(),
        (await membersByGroup(app.db, account(request), [saved.id])).get(saved.id),
      );
    },
  );
  // 204: identity providers do not need the group back, and a large one's members are costly to send.
  app.patch('/Groups/:id', { schema: { params: ResourceParams, body: ScimBody } }, async (request, reply) => {
    await patchScimGroup(app.db, account(request), request.params.id, request.body);
    return reply.code(204).send();
  });
  app.delete('/Groups/:id', { schema: { params: ResourceParams } }, async (request, reply) => {
    await deleteScimGroup(app.db, account(request), request.params.id);
    return reply.code(204).send();
  });
};
