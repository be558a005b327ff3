import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { accountOf } from '../../admin/request.js';
import { AccountParams, responses } from '../../admin/schemas.js';
import { listEnvelope } from '../../http/page-envelope.js';
import { parseId } from '../../ids.js';
import { listWindow } from '../../pagination.js';
import {
  AdminMessage,
  AdminMessageDetail,
  MailSummary,
  MessageIdParams,
  MessageList,
  MessageListQuery,
} from './messages.admin-schemas.js';
import { presentMessage, presentMessageDetail } from './messages.presenter.js';
import { getMessage, listMessagesPage, messageCounts, retryMessage } from './messages.service.js';

/**
 * The outbox: an account's mail queue and its record, relative to `/admin/api/accounts/:accountId`
 * (whose hooks have checked the session, the CSRF token and the account). Nothing is sent here:
 * a retry only queues the message again for the workers.
 */
const tags = ['Outbox'];

/** The options of a route on one of the account's messages, answering `message`. */
const onMessage = <T extends TSchema>(summary: string, message: T) => ({
  schema: { tags, summary, params: MessageIdParams, response: responses({ 200: message }) },
});

export const messagesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/messages',
    {
      schema: {
        tags,
        summary: 'Messages (invitations, reminders, new links), newest first',
        params: AccountParams,
        querystring: MessageListQuery,
        response: responses({ 200: MessageList }),
      },
    },
    async (request) => {
      const { status, campaign_id } = request.query;
      const page = await listMessagesPage(
        app.db,
        accountOf(request).accountId,
        // Digits past any id (beyond 2^53) match nothing: 0 is no campaign's id.
        { status, campaignId: campaign_id === undefined ? undefined : (parseId(campaign_id) ?? 0) },
        listWindow(request.query),
      );
      return listEnvelope(page, presentMessage);
    },
  );

  app.get(
    '/messages/summary',
    {
      schema: {
        tags,
        summary: 'How mail is delivered (`smtp`, or kept in the `outbox`) and the messages per status',
        params: AccountParams,
        response: responses({ 200: MailSummary }),
      },
    },
    async (request) => ({
      transport: app.config.mail.smtpUrl ? ('smtp' as const) : ('outbox' as const),
      counts: await messageCounts(app.db, accountOf(request).accountId),
    }),
  );

  app.get(
    '/messages/:messageId',
    onMessage(
      'One message with its bodies (null until an attempt hands it over for delivery)',
      AdminMessageDetail,
    ),
    async (request) =>
      presentMessageDetail(await getMessage(app.db, accountOf(request).accountId, request.params.messageId)),
  );

  app.post(
    '/messages/:messageId/retry',
    onMessage('Queues a failed message again', AdminMessage),
    async (request) =>
      presentMessage(await retryMessage(app.db, accountOf(request).accountId, request.params.messageId)),
  );
};
