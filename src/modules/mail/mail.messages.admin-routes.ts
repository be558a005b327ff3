import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { accountOf } from '../../core/http/admin-request.js';
import { AccountParams, responses } from '../../core/http/admin-schemas.js';
import { phishBaseUrl, publicBaseUrl } from '../../core/http/links.js';
import { listEnvelope } from '../../core/http/page-envelope.js';
import { parseId } from '../../core/ids.js';
import { listWindow } from '../../core/pagination.js';
import { type DescribeOptions, describeMessages, inlineImagesOf } from './mail.composers.service.js';
import {
  AdminMessage,
  AdminMessageDetail,
  MailSummary,
  MessageIdParams,
  MessageList,
  MessageListQuery,
} from './mail.messages.admin-schemas.js';
import { presentMessage, presentMessageDetail } from './mail.messages.presenter.js';
import { getMessage, listMessagesPage, messageCounts, retryMessage } from './mail.messages.service.js';

/**
 * The outbox: an account's mail queue and its record, relative to `/admin/api/accounts/:accountId`
 * (whose hooks have checked the session, the CSRF token and the account). Nothing is sent here:
 * a retry only queues the message again for the workers.
 */
const tags = ['Outbox'];

/** The options of a route on one of the account's messages, answering `message`. */
const onMessage = <T extends TSchema>(summary: string, message: T, adminPermission: string) => ({
  config: { adminPermission },
  schema: { tags, summary, params: MessageIdParams, response: responses({ 200: message }) },
});

export const messagesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** What a message's composer needs to say what it is sent as (its From, its links' host). */
  const describing = (): DescribeOptions => ({
    from: app.config.mail.from,
    baseUrl: publicBaseUrl(app),
    phishBaseUrl: phishBaseUrl(app),
  });

  app.get(
    '/messages',
    {
      config: { adminPermission: 'mail:read' },
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
      const { accountId, groups } = accountOf(request);
      const page = await listMessagesPage(
        app.db,
        accountId,
        // Digits past any id (beyond 2^53) match nothing: 0 is no campaign's id.
        { status, campaignId: campaign_id === undefined ? undefined : (parseId(campaign_id) ?? 0), groups },
        listWindow(request.query),
      );
      const described = await describeMessages(app.db, accountId, page.items, describing());
      return listEnvelope(page, (row) => presentMessage(row, described.get(row.id)));
    },
  );

  app.get(
    '/messages/summary',
    {
      config: { adminPermission: 'mail:read' },
      schema: {
        tags,
        summary: 'How mail is delivered (`smtp`, or kept in the `outbox`) and the messages per status',
        params: AccountParams,
        response: responses({ 200: MailSummary }),
      },
    },
    async (request) => ({
      transport: app.config.mail.smtpUrl ? ('smtp' as const) : ('outbox' as const),
      counts: await messageCounts(app.db, accountOf(request).accountId, accountOf(request).groups),
    }),
  );

  app.get(
    '/messages/:messageId',
    onMessage(
      'One message with its bodies (null until an attempt hands it over for delivery)',
      AdminMessageDetail,
      'mail:read',
    ),
    async (request) => {
      const { accountId } = accountOf(request);
      const message = await getMessage(app.db, accountId, request.params.messageId);
      const described = await describeMessages(app.db, accountId, [message], describing());
      // Read only for a sent body that shows an image by cid: (a logo is up to 256 KiB).
      const images = message.body_html?.includes('src="cid:')
        ? await inlineImagesOf(app.db, accountId, message.kind)
        : [];
      return presentMessageDetail(message, described.get(message.id), images);
    },
  );

  app.post(
    '/messages/:messageId/retry',
    onMessage('Queues a failed message again', AdminMessage, 'mail:write'),
    async (request) => {
      const { accountId } = accountOf(request);
      const message = await retryMessage(app.db, accountId, request.params.messageId);
      const described = await describeMessages(app.db, accountId, [message], describing());
      return presentMessage(message, described.get(message.id));
    },
  );
};
