import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { listEnvelope, listWindow } from '../../admin/list.js';
import {
  AdminCampaign,
  AdminEnrollment,
  CampaignBody,
  CampaignIdParams,
  CampaignList,
  CampaignListQuery,
  EnrollmentList,
  EnrollmentListQuery,
  Progress,
} from './campaigns.admin-schemas.js';
import { launchCampaign } from './campaigns.launch.js';
import { presentAdminCampaign, presentAdminEnrollment } from './campaigns.presenter.js';
import {
  archiveCampaign,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaignsPage,
  scheduleCampaign,
  stopCampaign,
  unscheduleCampaign,
  updateCampaign,
} from './campaigns.service.js';
import {
  campaignProgress,
  exportEnrollments,
  listEnrollmentsPage,
  resendInvitation,
} from './enrollments.service.js';

const TRANSITIONS = {
  schedule: scheduleCampaign,
  unschedule: unscheduleCampaign,
  stop: stopCampaign,
  archive: archiveCampaign,
} as const;

/**
 * The admin API's training campaign routes, relative to `/admin/api/accounts/:accountId`
 * (whose hooks have checked the session, the CSRF token and the account: `request.admin.accountId`).
 */
export const campaignsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/campaigns',
    { schema: { hide: true, querystring: CampaignListQuery, response: { 200: CampaignList } } },
    async (request) =>
      listEnvelope(
        await listCampaignsPage(app.db, request.admin.accountId, listWindow(request.query), {
          status: request.query.status,
        }),
        presentAdminCampaign,
      ),
  );

  app.post(
    '/campaigns',
    { schema: { hide: true, body: CampaignBody, response: { 201: AdminCampaign } } },
    async (request, reply) => {
      const campaign = await createCampaign(app.db, request.admin.accountId, request.body);
      return reply.status(201).send(presentAdminCampaign(campaign));
    },
  );

  app.get(
    '/campaigns/:campaignId',
    { schema: { hide: true, params: CampaignIdParams, response: { 200: AdminCampaign } } },
    async (request) =>
      presentAdminCampaign(await getCampaign(app.db, request.admin.accountId, request.params.campaignId)),
  );

  app.patch(
    '/campaigns/:campaignId',
    {
      schema: { hide: true, params: CampaignIdParams, body: CampaignBody, response: { 200: AdminCampaign } },
    },
    async (request) =>
      presentAdminCampaign(
        await updateCampaign(app.db, request.admin.accountId, request.params.campaignId, request.body),
      ),
  );

  app.delete(
    '/campaigns/:campaignId',
    { schema: { hide: true, params: CampaignIdParams } },
    async (request, reply) => {
      await deleteCampaign(app.db, request.admin.accountId, request.params.campaignId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/campaigns/:campaignId/launch',
    { schema: { hide: true, params: CampaignIdParams, response: { 200: AdminCampaign } } },
    async (request) =>
      presentAdminCampaign(
        await launchCampaign(app.db, {
          accountId: request.admin.accountId,
          campaignId: request.params.campaignId,
          trigger: 'now',
        }),
      ),
  );

  for (const [action, run] of Object.entries(TRANSITIONS)) {
    app.post(
      `/campaigns/:campaignId/${action}`,
      { schema: { hide: true, params: CampaignIdParams, response: { 200: AdminCampaign } } },
      async (request) =>
        presentAdminCampaign(await run(app.db, request.admin.accountId, request.params.campaignId)),
    );
  }

  app.get(
    '/campaigns/:campaignId/progress',
    { schema: { hide: true, params: CampaignIdParams, response: { 200: Progress } } },
    async (request) => campaignProgress(app.db, request.admin.accountId, request.params.campaignId),
  );

  app.get(
    '/campaigns/:campaignId/enrollments',
    {
      schema: {
        hide: true,
        params: CampaignIdParams,
        querystring: EnrollmentListQuery,
        response: { 200: EnrollmentList },
      },
    },
    async (request) => {
      const { status, search } = request.query;
      const page = await listEnrollmentsPage(
        app.db,
        request.admin.accountId,
        request.params.campaignId,
        { status, search },
        listWindow(request.query),
      );
      return listEnvelope(page, presentAdminEnrollment);
    },
  );

  app.post(
    '/campaigns/:campaignId/enrollments/:enrollmentId/resend',
    {
      schema: {
        hide: true,
        params: Type.Object({ campaignId: Type.String(), enrollmentId: Type.String() }),
        response: { 200: AdminEnrollment },
      },
    },
    async (request) =>
      presentAdminEnrollment(
        await resendInvitation(
          app.db,
          request.admin.accountId,
          request.params.campaignId,
          request.params.enrollmentId,
        ),
      ),
  );

  app.get(
    '/campaigns/:campaignId/enrollments.csv',
    { schema: { hide: true, params: CampaignIdParams } },
    async (request, reply) => {
      const csv = await exportEnrollments(app.db, request.admin.accountId, request.params.campaignId);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="campaign-${request.params.campaignId}-enrollments.csv"`,
        )
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );
};
