import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { responses } from '../../../core/http/admin-schemas.js';
import {
  EventParams,
  PhishingEvent,
  RecipientParams,
  RecipientTimeline,
  ReclassifyBody,
} from './results.events.admin-schemas.js';
import { recipientTimeline, reclassifyEvent } from './results.events.service.js';

const tags = ['Phishing simulations'];

/**
 * A phishing recipient's timeline and an administrator's reclassification of one event,
 * relative to `/admin/api/accounts/:accountId` (whose hooks checked the session, the CSRF token
 * and the account).
 */
export const phishingEventsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/phishing/campaigns/:campaignId/recipients/:recipientId/events',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary:
          'A recipient’s result and every event, oldest first, with classification, reason and reclassification',
        params: RecipientParams,
        response: responses({ 200: RecipientTimeline }),
      },
    },
    async (request) =>
      recipientTimeline(
        app.db,
        accountOf(request).accountId,
        request.params.campaignId,
        request.params.recipientId,
      ),
  );

  app.post(
    '/phishing/campaigns/:campaignId/events/:eventId/reclassify',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary:
          'Reclassifies one event as human or automated, with why; the recipient’s steps and the figures follow',
        params: EventParams,
        body: ReclassifyBody,
        response: responses({ 200: PhishingEvent }),
      },
    },
    async (request) => {
      const context = accountOf(request);
      return reclassifyEvent(app.db, {
        accountId: context.accountId,
        campaignId: request.params.campaignId,
        eventId: request.params.eventId,
        classification: request.body.classification,
        reason: request.body.reason,
        adminUserId: Number(context.user.id),
      });
    },
  );
};
