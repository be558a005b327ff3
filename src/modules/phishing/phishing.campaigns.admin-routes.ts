import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../admin/request.js';
import { AccountParams, NoContent, responses } from '../../admin/schemas.js';
import { listEnvelope } from '../../http/page-envelope.js';
import { listWindow } from '../../pagination.js';
import {
  AdminPhishingCampaign,
  CreatePhishingCampaignBody,
  PhishingCampaignIdParams,
  PhishingCampaignList,
  PhishingCampaignListQuery,
  UpdatePhishingCampaignBody,
} from './phishing.campaigns.admin-schemas.js';
import { presentAdminPhishingCampaign } from './phishing.campaigns.presenter.js';
import {
  createPhishingCampaign,
  deletePhishingCampaign,
  getPhishingCampaign,
  listPhishingCampaignsPage,
  updatePhishingCampaign,
} from './phishing.campaigns.service.js';
import {
  archivePhishingCampaign,
  schedulePhishingCampaign,
  stopPhishingCampaign,
  unschedulePhishingCampaign,
} from './phishing.campaigns.transitions.js';
import { launchPhishingCampaign } from './phishing.launch.js';

const TRANSITIONS = {
  schedule: {
    run: schedulePhishingCampaign,
    summary: 'Draft → scheduled: it launches by itself when its send window opens',
  },
  unschedule: { run: unschedulePhishingCampaign, summary: 'Scheduled → draft' },
  stop: {
    run: stopPhishingCampaign,
    summary: 'Running → completed (`stopped`): simulations not yet sent are cancelled',
  },
  archive: { run: archivePhishingCampaign, summary: 'Completed (or an unused draft) → archived' },
} as const;

const tags = ['Phishing campaigns'];

const onCampaign = (summary: string) => ({
  schema: {
    tags,
    summary,
    params: PhishingCampaignIdParams,
    response: responses({ 200: AdminPhishingCampaign }),
  },
});

/** The admin API's phishing campaign routes, relative to `/admin/api/accounts/:accountId`. */
export const phishingCampaignsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/phishing/campaigns',
    {
      schema: {
        tags,
        summary: 'Phishing campaigns, newest first, with their figures',
        params: AccountParams,
        querystring: PhishingCampaignListQuery,
        response: responses({ 200: PhishingCampaignList }),
      },
    },
    async (request) =>
      listEnvelope(
        await listPhishingCampaignsPage(app.db, accountOf(request).accountId, listWindow(request.query), {
          status: request.query.status,
        }),
        presentAdminPhishingCampaign,
      ),
  );

  app.post(
    '/phishing/campaigns',
    {
      schema: {
        tags,
        summary: 'Creates a phishing campaign in `draft`',
        params: AccountParams,
        body: CreatePhishingCampaignBody,
        response: responses({ 201: AdminPhishingCampaign }),
      },
    },
    async (request, reply) => {
      const campaign = await createPhishingCampaign(app.db, accountOf(request).accountId, request.body);
      return reply.status(201).send(presentAdminPhishingCampaign(campaign));
    },
  );

  app.get('/phishing/campaigns/:campaignId', onCampaign('One phishing campaign'), async (request) =>
    presentAdminPhishingCampaign(
      await getPhishingCampaign(app.db, accountOf(request).accountId, request.params.campaignId),
    ),
  );

  app.patch(
    '/phishing/campaigns/:campaignId',
    {
      schema: {
        tags,
        summary: 'Changes the fields sent; a field its status does not let change is a 409',
        params: PhishingCampaignIdParams,
        body: UpdatePhishingCampaignBody,
        response: responses({ 200: AdminPhishingCampaign }),
      },
    },
    async (request) =>
      presentAdminPhishingCampaign(
        await updatePhishingCampaign(
          app.db,
          accountOf(request).accountId,
          request.params.campaignId,
          request.body,
        ),
      ),
  );

  app.delete(
    '/phishing/campaigns/:campaignId',
    {
      schema: {
        tags,
        summary: 'Deletes a draft (409 otherwise)',
        params: PhishingCampaignIdParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deletePhishingCampaign(app.db, accountOf(request).accountId, request.params.campaignId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/phishing/campaigns/:campaignId/launch',
    onCampaign(
      'Draft or scheduled → running now: plans each person’s moment in the window and queues one simulation each',
    ),
    async (request) =>
      presentAdminPhishingCampaign(
        await launchPhishingCampaign(app.db, {
          accountId: accountOf(request).accountId,
          campaignId: request.params.campaignId,
          trigger: 'now',
        }),
      ),
  );

  for (const [action, { run, summary }] of Object.entries(TRANSITIONS)) {
    app.post(`/phishing/campaigns/:campaignId/${action}`, onCampaign(summary), async (request) =>
      presentAdminPhishingCampaign(
        await run(app.db, accountOf(request).accountId, request.params.campaignId),
      ),
    );
  }
};
