import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf, ListQuery, listEnvelope, listWindow } from '../../admin/list.js';
import { Id, Timestamp } from '../../http/schemas.js';
import { presentCampaignWithGroups } from './campaigns.presenter.js';
import { getCampaign, listCampaignsPage } from './campaigns.service.js';

const AdminCampaign = Type.Object({
  id: Id,
  name: Type.String(),
  status: Type.String(),
  groups: Type.Array(Type.Object({ id: Id, name: Type.String() })),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const CampaignIdParams = Type.Object({ campaignId: Type.String() });

/**
 * The admin API's training campaign routes, relative to `/admin/api/accounts/:accountId`
 * (whose hooks have checked the session and the account: `request.admin.accountId`).
 */
export const campaignsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/campaigns',
    { schema: { hide: true, querystring: ListQuery, response: { 200: ListOf(AdminCampaign) } } },
    async (request) =>
      listEnvelope(
        await listCampaignsPage(app.db, request.admin.accountId, listWindow(request.query)),
        presentCampaignWithGroups,
      ),
  );

  app.get(
    '/campaigns/:campaignId',
    { schema: { hide: true, params: CampaignIdParams, response: { 200: AdminCampaign } } },
    async (request) =>
      presentCampaignWithGroups(
        await getCampaign(app.db, request.admin.accountId, request.params.campaignId),
      ),
  );
};
