import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { UNUSED_BODY_LIMIT } from '../../../core/http/bodies.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';
import { presentRecipientResult } from '../results/results.presenter.js';
import type { ReportIntake } from './reports.intake.service.js';
import { REPORTED_MESSAGE_MAX_BYTES } from './reports.model.js';
import { ReportBody, reportResponses } from './reports.schemas.js';
import { reportSimulation } from './reports.service.js';

const tags = ['Phishing simulations'];

/** The reported message's bytes as they came (a `message/rfc822` body); nothing of it is logged. */
export class ReportedMessage {
  constructor(readonly raw: Buffer) {}
}

/** Lets the routes of this scope take a reported message as `message/rfc822`, up to 10 MiB. */
export function acceptReportedMessages(app: FastifyInstance): void {
  app.addContentTypeParser(
    'message/rfc822',
    { parseAs: 'buffer', bodyLimit: REPORTED_MESSAGE_MAX_BYTES },
    (_request, body, done) => done(null, new ReportedMessage(body as Buffer)),
  );
}

export const phishingReportRoutes: FastifyPluginAsyncTypebox<{ intake: ReportIntake }> = async (
  app,
  { intake },
) => {
  acceptReportedMessages(app);

  app.post(
    '/customer/campaigns/phishing/reports/',
    {
      schema: {
        operationId: 'reportPhishingSimulation',
        summary: 'Report a phishing simulation',
        description:
          'An employee reported an email. Send either `{"token": "…"}` (the value of the email’s `X-Vigil-Simulation` header) as `application/json`, or the reported email itself as `message/rfc822` (at most 10 MiB): the token is found in its header, in the header of an email attached to it, or in its links (links rewritten by Microsoft Safe Links, Proofpoint, Google, Barracuda, Cisco or Sophos included). The first token that is one of the account’s simulations is marked reported: the first report’s time is kept, and a report after a click still counts. Nothing of the message is kept. Answers with that recipient’s result.',
        tags,
        body: {
          content: {
            'application/json': { schema: ReportBody },
            'message/rfc822': {
              schema: Type.Unsafe<unknown>({
                description: 'The reported email, as received (an .eml file).',
                [OPENAPI_OVERRIDE]: { type: 'string', format: 'binary' },
              }),
            },
          },
        },
        response: reportResponses,
      },
      config: {
        // A report button's own access point: its key can report, and do nothing else.
        permission: 'reports:write',
        // `{"token": …}` is tiny; a reported message is read up to 10 MiB.
        body: {
          accepts: { 'application/json': UNUSED_BODY_LIMIT, 'message/rfc822': REPORTED_MESSAGE_MAX_BYTES },
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = await reportSimulation(intake, {
        accountId: request.auth.accountId,
        report: body instanceof ReportedMessage ? { kind: 'message', raw: body.raw } : { kind: 'json', body },
        clientAddress: request.ip,
        headers: request.headers,
      });
      return reply.status(202).send(presentRecipientResult(result));
    },
  );
};
