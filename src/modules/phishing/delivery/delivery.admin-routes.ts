import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, responses } from '../../../core/http/admin-schemas.js';
import { phishBaseUrl } from '../../../core/http/links.js';
import { senderPolicyOf } from '../settings/settings.sender.service.js';
import {
  DeliverySheet,
  TestSend,
  TestSendBody,
  TestSendList,
  TestSendParams,
} from './delivery.admin-schemas.js';
import { presentTestSend } from './delivery.presenter.js';
import { sendTestSimulation } from './delivery.sends.commands.js';
import { deliverySheet, getTestSend, listTestSends } from './delivery.service.js';

const tags = ['Phishing delivery'];

/**
 * Delivery that lands, relative to `/admin/api/accounts/:accountId`: the allow-listing sheet with
 * the account's values, and test sends to one of its employees with the hits that followed.
 */
export const phishingDeliveryAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/phishing/delivery',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary:
          "The allow-listing sheet: the account's sending domains, the relay's addresses, the simulation links and header, for Microsoft 365's advanced delivery policy and Google Workspace",
        params: AccountParams,
        response: responses({ 200: DeliverySheet }),
      },
    },
    async (request) =>
      deliverySheet(app.db, accountOf(request).accountId, {
        phishBase: phishBaseUrl(app),
        sendingIps: app.config.phishing.sendingIps,
        smtpUrl: app.config.mail.smtpUrl,
      }),
  );

  app.get(
    '/phishing/delivery/test-sends',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary: "The account's latest ten test sends with their hits, newest first",
        params: AccountParams,
        response: responses({ 200: TestSendList }),
      },
    },
    async (request) => {
      const now = Date.now();
      const sends = await listTestSends(app.db, accountOf(request).accountId);
      return { data: sends.map((s) => presentTestSend(s, now)) };
    },
  );

  app.post(
    '/phishing/delivery/test-sends',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary:
          'Sends one simulation now to one of the account’s employees (any other address is a 400), outside every campaign; 10 an hour per account (429)',
        params: AccountParams,
        body: TestSendBody,
        response: responses({ 201: TestSend }),
      },
    },
    async (request, reply) => {
      const { accountId, user } = accountOf(request);
      const send = await sendTestSimulation(
        app.db,
        { accountId, adminId: user.id, email: request.body.email, templateKey: request.body.template_key },
        senderPolicyOf(app.config.phishing.allowLocalSender, phishBaseUrl(app)),
      );
      return reply.status(201).send(presentTestSend(send));
    },
  );

  app.get(
    '/phishing/delivery/test-sends/:testSendId',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary: 'One test send with the hits that followed (the page polls it)',
        params: TestSendParams,
        response: responses({ 200: TestSend }),
      },
    },
    async (request) =>
      presentTestSend(await getTestSend(app.db, accountOf(request).accountId, request.params.testSendId)),
  );
};
