import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { FieldErrorCollector, unsupportedMediaType } from '../../../core/errors.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';
import { ReportMessageBody, ReportMessageQuery, reportMessageResponses } from './reports.intake.schemas.js';
import { type ReportIntake, receiveReport } from './reports.intake.service.js';
import { REPORTED_MESSAGE_MAX_BYTES } from './reports.model.js';
import { messageOfParts } from './reports.parts.model.js';
import { acceptReportedMessages, ReportedMessage } from './reports.routes.js';

/** A JSON report's body may carry a 10 MiB message in base64, with room for the rest. */
const JSON_REPORT_MAX_BYTES = 15 * 1024 * 1024;

const THANKS = {
  simulation: 'Well spotted: this was a phishing simulation, and your report counts.',
  real: 'Thank you: your security team will look at it.',
};

/**
 * `POST /customer/reports/` (v2.3.0): every report of a message, a simulation or not. The Outlook
 * add-in sends JSON; gateways and scripts may send the message itself with `?reporter=`. The
 * key needs `reports:write` alone.
 */
export const reportIntakeRoutes: FastifyPluginAsyncTypebox<{ intake: ReportIntake }> = async (
  app,
  { intake },
) => {
  acceptReportedMessages(app);

  app.post(
    '/customer/reports/',
    {
      schema: {
        operationId: 'reportMessage',
        summary: 'Report a message (v2.3.0)',
        description:
          'An employee reported an email (a report button, a gateway, a script). Send JSON (`reporter` and the message as `eml`, base64, or as its parts: `internet_headers`, `html`, `text`, `attachments` by name), or the message itself as `message/rfc822` with `?reporter=`. The reporter must be one of the account’s employees; each may report 30 messages an hour. A message carrying one of the account’s simulations (its header, a link, a rewritten link, an attached message) credits its recipient as reported and goes no further; anything else becomes a real report in the triage inbox, grouped with identical reports. The answer says which, with a sentence to show the reporter.',
        tags: ['Reports'],
        querystring: ReportMessageQuery,
        body: {
          content: {
            'application/json': { schema: ReportMessageBody },
            'message/rfc822': {
              schema: Type.Unsafe<unknown>({
                description:
                  'The reported email, as received (an .eml file); `?reporter=` names who reported it.',
                [OPENAPI_OVERRIDE]: { type: 'string', format: 'binary' },
              }),
            },
          },
        },
        response: reportMessageResponses,
      },
      config: {
        permission: 'reports:write',
        since: '2.3.0',
        body: {
          accepts: {
            'application/json': JSON_REPORT_MAX_BYTES,
            'message/rfc822': REPORTED_MESSAGE_MAX_BYTES,
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // No media type and no body: nothing the route reads (the schemas are per media type).
      if (body === undefined || body === null) throw unsupportedMediaType();
      let report: { reporter: string; raw: Buffer; listed?: ReturnType<typeof messageOfParts>['listed'] };
      if (body instanceof ReportedMessage) {
        const reporter = request.query.reporter;
        if (reporter === undefined) {
          const errors = new FieldErrorCollector();
          errors.add('reporter', 'is required with a message/rfc822 body (?reporter=)');
          errors.throwIfAny();
        }
        report = { reporter: reporter as string, raw: body.raw };
      } else {
        const parts = body as typeof ReportMessageBody.static;
        const message = messageOfParts(parts);
        report = { reporter: parts.reporter, raw: message.raw, listed: message.listed };
      }
      const outcome = await receiveReport(intake, {
        accountId: request.auth.accountId,
        channel: body instanceof ReportedMessage ? 'api' : 'addin',
        reporter: report.reporter,
        raw: report.raw,
        envelope: 'direct',
        clientAddress: request.ip,
        headers: request.headers,
        ...(report.listed && { listedAttachments: report.listed }),
      });
      return reply.status(202).send({
        outcome: outcome.kind,
        report_id: outcome.kind === 'real' ? outcome.reportId : null,
        message: THANKS[outcome.kind],
      });
    },
  );
};
