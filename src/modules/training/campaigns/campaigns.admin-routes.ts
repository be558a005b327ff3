import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, CsvFile, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { sendCsvFile } from '../../../core/http/csv-download.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import {
  AdminCampaign,
  AdminEnrollment,
  CampaignIdParams,
  CampaignList,
  CampaignListQuery,
  CreateCampaignBody,
  EnrollmentIdParams,
  EnrollmentList,
  EnrollmentListQuery,
  Progress,
  UpdateCampaignBody,
} from './campaigns.admin-schemas.js';
import { exportEnrollments, listEnrollmentsPage, resendInvitation } from './campaigns.enrollments.service.js';
import { launchCampaign } from './campaigns.launch.commands.js';
import { presentAdminCampaign, presentAdminEnrollment } from './campaigns.presenter.js';
import { campaignProgress } from './campaigns.progress.service.js';
import { createCampaign, getCampaign, listCampaignsPage, updateCampaign } from './campaigns.service.js';
import {
  archiveCampaign,
  deleteCampaign,
  scheduleCampaign,
  stopCampaign,
  unscheduleCampaign,
} from './campaigns.transitions.commands.js';

const TRANSITIONS = {
  schedule: { run: scheduleCampaign, summary: 'Draft → scheduled: it launches by itself at `start_date`' },
  unschedule: { run: unscheduleCampaign, summary: 'Scheduled → draft' },
  stop: { run: stopCampaign, summary: 'Active → completed' },
  archive: { run: archiveCampaign, summary: 'Completed (or an unused draft) → archived' },
} as const;

const tags = ['Training campaigns'];

/** The options of a route on one of the account's campaigns that answers the campaign. */
const onCampaign = (summary: string, adminPermission: string) => ({
  config: { adminPermission },
  schema: { tags, summary, params: CampaignIdParams, response: responses({ 200: AdminCampaign }) },
});

/**
 * The admin API's training campaign routes, relative to `/admin/api/accounts/:accountId`
 * (whose hooks have checked the session, the CSRF token and the account: `accountOf(request).accountId`).
 */
export const campaignsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/campaigns',
    {
      config: { adminPermission: 'training:read' },
      schema: {
        tags,
        summary: 'Campaigns, newest first',
        params: AccountParams,
        querystring: CampaignListQuery,
        response: responses({ 200: CampaignList }),
      },
    },
    async (request) =>
      listEnvelope(
        await listCampaignsPage(
          app.db,
          accountOf(request).accountId,
          listWindow(request.query),
          { status: request.query.status },
          accountOf(request).groups,
        ),
        presentAdminCampaign,
      ),
  );

  app.post(
    '/campaigns',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary: 'Creates a campaign in `draft`',
        params: AccountParams,
        body: CreateCampaignBody,
        response: responses({ 201: AdminCampaign }),
      },
    },
    async (request, reply) => {
      const campaign = await createCampaign(app.db, accountOf(request).accountId, request.body);
      return reply.status(201).send(presentAdminCampaign(campaign));
    },
  );

  app.get('/campaigns/:campaignId', onCampaign('One campaign', 'training:read'), async (request) =>
    presentAdminCampaign(
      await getCampaign(
        app.db,
        accountOf(request).accountId,
        request.params.campaignId,
        accountOf(request).groups,
      ),
    ),
  );

  app.patch(
    '/campaigns/:campaignId',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary:
          'Changes the fields sent; a field its status does not let change (`campaign.editable_fields` of `GET /limits`) is a 409',
        params: CampaignIdParams,
        body: UpdateCampaignBody,
        response: responses({ 200: AdminCampaign }),
      },
    },
    async (request) =>
      presentAdminCampaign(
        await updateCampaign(app.db, accountOf(request).accountId, request.params.campaignId, request.body),
      ),
  );

  app.delete(
    '/campaigns/:campaignId',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary: 'Deletes a draft (409 otherwise)',
        params: CampaignIdParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deleteCampaign(app.db, accountOf(request).accountId, request.params.campaignId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/campaigns/:campaignId/launch',
    onCampaign(
      'Draft or scheduled → active now: enrolls every member of the target groups once and queues their invitations',
      'training:write',
    ),
    async (request) =>
      presentAdminCampaign(
        await launchCampaign(app.db, {
          accountId: accountOf(request).accountId,
          campaignId: request.params.campaignId,
          trigger: 'now',
        }),
      ),
  );

  for (const [action, { run, summary }] of Object.entries(TRANSITIONS)) {
    app.post(`/campaigns/:campaignId/${action}`, onCampaign(summary, 'training:write'), async (request) =>
      presentAdminCampaign(await run(app.db, accountOf(request).accountId, request.params.campaignId)),
    );
  }

  app.get(
    '/campaigns/:campaignId/progress',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary: 'Completion figures of a launched campaign',
        params: CampaignIdParams,
        response: responses({ 200: Progress }),
      },
    },
    async (request) => {
      const { accountId, groups } = accountOf(request);
      return campaignProgress(app.db, accountId, request.params.campaignId, groups);
    },
  );

  app.get(
    '/campaigns/:campaignId/enrollments',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary: 'The people enrolled, by last name',
        params: CampaignIdParams,
        querystring: EnrollmentListQuery,
        response: responses({ 200: EnrollmentList }),
      },
    },
    async (request) => {
      const { status, search } = request.query;
      const page = await listEnrollmentsPage(
        app.db,
        accountOf(request).accountId,
        request.params.campaignId,
        { status, search },
        listWindow(request.query),
        accountOf(request).groups,
      );
      return listEnvelope(page, presentAdminEnrollment);
    },
  );

  app.post(
    '/campaigns/:campaignId/enrollments/:enrollmentId/resend',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary:
          'Queues a fresh invitation to one person; 409 unless the campaign is active, they have not completed and no invitation to them is waiting',
        params: EnrollmentIdParams,
        response: responses({ 200: AdminEnrollment }),
      },
    },
    async (request) =>
      presentAdminEnrollment(
        await resendInvitation(
          app.db,
          accountOf(request).accountId,
          request.params.campaignId,
          request.params.enrollmentId,
        ),
      ),
  );

  app.get(
    '/campaigns/:campaignId/enrollments.csv',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary: 'Every enrollment as CSV',
        params: CampaignIdParams,
        response: responses({ 200: CsvFile }),
      },
    },
    async (request, reply) => {
      const { accountId, groups } = accountOf(request);
      const csv = await exportEnrollments(app.db, accountId, request.params.campaignId, groups);
      return sendCsvFile(reply, `campaign-${request.params.campaignId}-enrollments.csv`, csv);
    },
  );
};
