import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { presentPage } from '../../../core/http/page-envelope.js';
import { parseId } from '../../../core/ids.js';
import { pageRequest } from '../../../core/pagination.js';
import { presentPhishingCampaign, presentRecipientResult } from './results.presenter.js';
import {
  getPhishingCampaignResponses,
  ListPhishingCampaignsQuery,
  ListResultsQuery,
  listPhishingCampaignsResponses,
  listResultsResponses,
  PhishingCampaignParams,
} from './results.schemas.js';
import { findPhishingCampaigns, findRecipientResults, getApiPhishingCampaign } from './results.service.js';

const tags = ['Phishing simulations'];

/** The Customer API's phishing simulation routes (read): campaigns with their figures, and per-person results. */
export const phishingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customer/campaigns/phishing/',
    {
      schema: {
        operationId: 'listPhishingCampaigns',
        summary: 'List phishing campaigns',
        description:
          'Ordered by id, with the target groups, template pool, send window and figures (human events only: scanners are not counted).',
        tags,
        querystring: ListPhishingCampaignsQuery,
        response: listPhishingCampaignsResponses,
      },
      config: { permission: 'campaigns:read' },
    },
    async (request) =>
      presentPage(
        request,
        await findPhishingCampaigns(app.db, request.auth.accountId, pageRequest(request.query)),
        presentPhishingCampaign,
      ),
  );

  app.get(
    '/customer/campaigns/phishing/:campaign_id/',
    {
      schema: {
        operationId: 'getPhishingCampaign',
        summary: 'Get a phishing campaign',
        tags,
        params: PhishingCampaignParams,
        response: getPhishingCampaignResponses,
      },
      config: { permission: 'campaigns:read' },
    },
    async (request) =>
      presentPhishingCampaign(
        await getApiPhishingCampaign(app.db, request.auth.accountId, request.params.campaign_id),
      ),
  );

  app.get(
    '/customer/campaigns/phishing/:campaign_id/results/',
    {
      schema: {
        operationId: 'listPhishingCampaignResults',
        summary: 'List a phishing campaign’s results',
        description:
          'One per person targeted, ordered by employee id: the template they were sent, their status and the first time of each step. Optional `status` and `employee_id` filters.',
        tags,
        params: PhishingCampaignParams,
        querystring: ListResultsQuery,
        response: listResultsResponses,
      },
      config: { permission: 'campaigns:read' },
    },
    async (request) =>
      presentPage(
        request,
        await findRecipientResults(
          app.db,
          request.auth.accountId,
          request.params.campaign_id,
          pageRequest(request.query),
          {
            status: request.query.status,
            // Beyond any id (2^53 and up) names nobody: an empty page, like an unknown id.
            employeeId:
              request.query.employee_id === undefined ? undefined : (parseId(request.query.employee_id) ?? 0),
          },
        ),
        presentRecipientResult,
      ),
  );
};
