import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { phishBaseUrl } from '../../../core/http/links.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import { senderPolicyOf } from '../settings/settings.sender.service.js';
import {
  AdminPhishingCampaign,
  CreatePhishingCampaignBody,
  PhishingCampaignIdParams,
  PhishingCampaignList,
  PhishingCampaignListQuery,
  PhishingLaunchPreview,
  UpdatePhishingCampaignBody,
} from './campaigns.admin-schemas.js';
import { launchPhishingCampaign } from './campaigns.launch.commands.js';
import { presentAdminPhishingCampaign, presentLaunchPreview } from './campaigns.presenter.js';
import {
  createPhishingCampaign,
  deletePhishingCampaign,
  getPhishingCampaign,
  listPhishingCampaignsPage,
  previewPhishingLaunch,
  updatePhishingCampaign,
} from './campaigns.service.js';
import {
  archivePhishingCampaign,
  schedulePhishingCampaign,
  stopPhishingCampaign,
  unschedulePhishingCampaign,
} from './campaigns.transitions.commands.js';

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

const onCampaign = (summary: string, adminPermission: string) => ({
  config: { adminPermission },
  schema: {
    tags,
    summary,
    params: PhishingCampaignIdParams,
    response: responses({ 200: AdminPhishingCampaign }),
  },
});

/** The admin API's phishing campaign routes, relative to `/admin/api/accounts/:accountId`. */
export const phishingCampaignsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sender = () => senderPolicyOf(app.config.phishing.allowLocalSender, phishBaseUrl(app));
  app.get(
    '/phishing/campaigns',
    {
      config: { adminPermission: 'phishing:read' },
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
        await listPhishingCampaignsPage(
          app.db,
          accountOf(request).accountId,
          listWindow(request.query),
          { status: request.query.status },
          accountOf(request).groups,
        ),
        presentAdminPhishingCampaign,
      ),
  );

  app.post(
    '/phishing/campaigns',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary: 'Creates a phishing campaign in `draft`',
        params: AccountParams,
        body: CreatePhishingCampaignBody,
        response: responses({ 201: AdminPhishingCampaign }),
      },
    },
    async (request, reply) => {
      const campaign = await createPhishingCampaign(
        app.db,
        accountOf(request).accountId,
        request.body,
        sender(),
      );
      return reply.status(201).send(presentAdminPhishingCampaign(campaign));
    },
  );

  app.get(
    '/phishing/campaigns/:campaignId',
    onCampaign('One phishing campaign', 'phishing:read'),
    async (request) =>
      presentAdminPhishingCampaign(
        await getPhishingCampaign(app.db, accountOf(request).accountId, request.params.campaignId),
      ),
  );

  app.patch(
    '/phishing/campaigns/:campaignId',
    {
      config: { adminPermission: 'phishing:write' },
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
          sender(),
        ),
      ),
  );

  app.delete(
    '/phishing/campaigns/:campaignId',
    {
      config: { adminPermission: 'phishing:write' },
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
      'phishing:write',
    ),
    async (request) =>
      presentAdminPhishingCampaign(
        await launchPhishingCampaign(app.db, {
          accountId: accountOf(request).accountId,
          campaignId: request.params.campaignId,
          trigger: 'now',
          sender: sender(),
        }),
      ),
  );

  app.get(
    '/phishing/campaigns/:campaignId/launch-preview',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary:
          'What launching now would do: how many people, the first and last moment it could plan, the sender domain',
        params: PhishingCampaignIdParams,
        response: responses({ 200: PhishingLaunchPreview }),
      },
    },
    async (request) =>
      presentLaunchPreview(
        await previewPhishingLaunch(
          app.db,
          accountOf(request).accountId,
          request.params.campaignId,
          sender(),
        ),
      ),
  );

  for (const [action, { run, summary }] of Object.entries(TRANSITIONS)) {
    app.post(
      `/phishing/campaigns/:campaignId/${action}`,
      onCampaign(summary, 'phishing:write'),
      async (request) =>
        presentAdminPhishingCampaign(
          await run(app.db, accountOf(request).accountId, request.params.campaignId, sender()),
        ),
    );
  }
};
