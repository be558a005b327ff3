import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { presentPage } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { findEnrollments } from './campaigns.enrollments.service.js';
import { presentCampaign, presentEnrollment } from './campaigns.presenter.js';
import {
  CampaignParams,
  getCampaignResponses,
  ListCampaignsQuery,
  ListEnrollmentsQuery,
  listCampaignsResponses,
  listEnrollmentsResponses,
} from './campaigns.schemas.js';
import { findCampaigns, getCampaign } from './campaigns.service.js';

const tags = ['Training campaigns'];

export const campaignsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customer/campaigns/training/',
    {
      schema: {
        operationId: 'listTrainingCampaigns',
        summary: 'List training campaigns',
        description:
          'Ordered by id, with courses, dates and enrollment figures. A 200 here is how a client verifies that its key works.',
        tags,
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

  app.get(
    '/customer/campaigns/training/:campaign_id/',
    {
      schema: {
        operationId: 'getTrainingCampaign',
        summary: 'Get a training campaign',
        tags,
        params: CampaignParams,
        response: getCampaignResponses,
      },
      config: { permission: 'campaigns:read' },
    },
    async (request) =>
      presentCampaign(await getCampaign(app.db, request.auth.accountId, request.params.campaign_id)),
  );

  app.get(
    '/customer/campaigns/training/:campaign_id/enrollments/',
    {
      schema: {
        operationId: 'listTrainingCampaignEnrollments',
        summary: 'List a campaign’s enrollments',
        description:
          'One per enrolled employee, ordered by employee id: the employee, status, start and completion times and quiz score. Optional `status` filter.',
        tags,
        params: CampaignParams,
        querystring: ListEnrollmentsQuery,
        response: listEnrollmentsResponses,
      },
      config: { permission: 'campaigns:read' },
    },
    async (request) =>
      presentPage(
        request,
        await findEnrollments(
          app.db,
          request.auth.accountId,
          request.params.campaign_id,
          pageRequest(request.query),
          { status: request.query.status },
        ),
        presentEnrollment,
      ),
  );
};
