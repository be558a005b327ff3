import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { phishBaseUrl } from '../../../core/http/links.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import { senderPolicyOf } from '../settings/settings.sender.service.js';
import { getPhishingSettings, updatePhishingSettings } from '../settings/settings.service.js';
import {
  CloneBody,
  PhishingSettings,
  PhishingSettingsBody,
  PhishingTemplate,
  PhishingTemplateList,
  PreviewBody,
  TemplateBody,
  TemplateKeyParams,
  TemplateListQuery,
  TemplatePreview,
} from './templates.admin-schemas.js';
import {
  presentPreview,
  presentSettings,
  presentTemplate,
  presentTemplateSummary,
} from './templates.presenter.js';
import { previewTemplate } from './templates.preview.service.js';
import {
  cloneTemplate,
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplatesPage,
  updateTemplate,
} from './templates.service.js';

const tags = ['Phishing templates'];

/**
 * The admin API's phishing template library and the account's phishing settings, relative to
 * `/admin/api/accounts/:accountId` (whose hooks have checked the session, CSRF and account).
 */
export const phishingTemplatesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const senderPolicy = () => senderPolicyOf(app.config.phishing.allowLocalSender, phishBaseUrl(app));
  app.get(
    '/phishing/templates',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary: "The built-in library (easiest first), then the account's own templates by name",
        params: AccountParams,
        querystring: TemplateListQuery,
        response: responses({ 200: PhishingTemplateList }),
      },
    },
    async (request) => {
      const { difficulty, category, source, q } = request.query;
      const page = await listTemplatesPage(app.db, accountOf(request).accountId, listWindow(request.query), {
        difficulty,
        category,
        source,
        q,
      });
      return listEnvelope(page, presentTemplateSummary);
    },
  );

  app.post(
    '/phishing/templates',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary: 'Creates a template of the account (`custom:<id>`)',
        params: AccountParams,
        body: TemplateBody,
        response: responses({ 201: PhishingTemplate }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentTemplate(await createTemplate(app.db, accountOf(request).accountId, request.body))),
  );

  app.post(
    '/phishing/templates/preview',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary:
          'Renders a template as written (not saved) for a sample person, with its field errors: the editor’s live preview',
        params: AccountParams,
        body: PreviewBody,
        response: responses({ 200: TemplatePreview }),
      },
    },
    async (request) =>
      presentPreview(
        await previewTemplate(app.db, accountOf(request).accountId, request.body, {
          phishBase: phishBaseUrl(app),
        }),
      ),
  );

  app.get(
    '/phishing/templates/:templateKey',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary: 'One template, as written, with its red flags',
        params: TemplateKeyParams,
        response: responses({ 200: PhishingTemplate }),
      },
    },
    async (request) =>
      presentTemplate(await getTemplate(app.db, accountOf(request).accountId, request.params.templateKey)),
  );

  app.put(
    '/phishing/templates/:templateKey',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary: 'Replaces a template of the account; a built-in one is a 409 (clone it)',
        params: TemplateKeyParams,
        body: TemplateBody,
        response: responses({ 200: PhishingTemplate }),
      },
    },
    async (request) =>
      presentTemplate(
        await updateTemplate(app.db, accountOf(request).accountId, request.params.templateKey, request.body),
      ),
  );

  app.delete(
    '/phishing/templates/:templateKey',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary:
          'Deletes a template of the account; drafts lose it from their pool; a built-in one, or one a campaign past its draft uses, is a 409',
        params: TemplateKeyParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deleteTemplate(app.db, accountOf(request).accountId, request.params.templateKey);
      return reply.status(204).send();
    },
  );

  app.post(
    '/phishing/templates/:templateKey/clone',
    {
      config: { adminPermission: 'phishing:write' },
      schema: {
        tags,
        summary: 'Copies a built-in or own template into a new one of the account ("… (copy)")',
        params: TemplateKeyParams,
        body: CloneBody,
        response: responses({ 201: PhishingTemplate }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          presentTemplate(
            await cloneTemplate(
              app.db,
              accountOf(request).accountId,
              request.params.templateKey,
              request.body,
            ),
          ),
        ),
  );

  app.get(
    '/phishing/settings',
    {
      config: { adminPermission: 'phishing:read' },
      schema: {
        tags,
        summary:
          "The account's phishing settings: the networks of its mail security products, the default sender",
        params: AccountParams,
        response: responses({ 200: PhishingSettings }),
      },
    },
    async (request) =>
      presentSettings(await getPhishingSettings(app.db, accountOf(request).accountId), senderPolicy()),
  );

  app.put(
    '/phishing/settings',
    {
      config: { adminPermission: 'phishing:write', adminScope: 'account' },
      schema: {
        tags,
        summary:
          'Changes the settings sent: the scanner networks (a bad line is a 400 under `scanner_networks[<index>]`), the default sender (a local domain is refused unless PHISHING_ALLOW_LOCAL_SENDER allows it)',
        params: AccountParams,
        body: PhishingSettingsBody,
        response: responses({ 200: PhishingSettings }),
      },
    },
    async (request) => {
      const policy = senderPolicy();
      return presentSettings(
        await updatePhishingSettings(app.db, accountOf(request).accountId, request.body, policy),
        policy,
      );
    },
  );
};
