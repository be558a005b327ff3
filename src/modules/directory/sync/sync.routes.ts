import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { presentPage } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { presentTombstone } from './sync.presenter.js';
import { DeletedQuery, deletedResponses } from './sync.schemas.js';
import { deletedSince } from './sync.service.js';

interface DeletedListProps {
  /** The access point whose read permission the list needs, and whose name its path starts with. */
  accessPoint: 'employees' | 'groups';
  resource: 'employee' | 'group';
  operationId: string;
  summary: string;
  description: string;
  tag: string;
}

/**
 * `GET /customer/<access point>/deleted/?since=`: the ids of the account's employees or groups
 * deleted at or after `since`, oldest first, paged like every list (incremental sync, v2.3.0).
 */
export function registerDeletedList(app: FastifyInstance, props: DeletedListProps): void {
  app.get<{ Querystring: Static<typeof DeletedQuery> }>(
    `/customer/${props.accessPoint}/deleted/`,
    {
      schema: {
        operationId: props.operationId,
        summary: props.summary,
        description: props.description,
        tags: [props.tag],
        querystring: DeletedQuery,
        response: deletedResponses(props.accessPoint),
      },
      config: { permission: `${props.accessPoint}:read`, since: '2.3.0' },
    },
    async (request) => {
      const window = pageRequest(request.query);
      const page = await deletedSince(
        app.db,
        request.auth.accountId,
        props.resource,
        request.query.since,
        window,
      );
      return presentPage(request, page, presentTombstone);
    },
  );
}
