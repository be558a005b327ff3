import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { presentPage } from '../../http/page-envelope.js';
import { pageRequest } from '../../pagination.js';
import { presentCampaign } from './campaigns.presenter.js';
import { ListCampaignsQuery, listCampaignsResponses } from './campaigns.schemas.js';
import { findCampaigns } from './campaigns.service.js';

export const campaignsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customer/campaigns/training/',
    {
      schema: {
        summary: 'List training campaigns',
        description: 'Ordered by id. A 200 here is how a client verifies that its key works.',
        tags: ['Training campaigns'],
        querystring: ListCampaignsQuery,
        response: listCampaignsResponses,
      },
      config: { permission: 'campaigns:read' },
    },
    async (request) =>
      presentPage(
        request,
        await findCampaigns(app.db, request.auth.accountId, pageRequest(request.query)),
        presentCampaign,
      ),
  );
};
