import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import {
  AdminReportDetail,
  FeedbackTemplateBody,
  FeedbackTemplates,
  ReportingSettings,
  ReportingSettingsBody,
  ReportList,
  ReportListQuery,
  ReportParams,
  Rule,
  RuleBody,
  RuleList,
  RuleParams,
  VerdictBody,
  VerdictParams,
} from './triage.admin-schemas.js';
import { FEEDBACK_PLACEHOLDERS } from './triage.feedback.model.js';
import { presentAdminReportDetail, presentAdminReportSummary, presentRule } from './triage.presenter.js';
import {
  addReportRule,
  contentOfReport,
  feedbackTemplates,
  getReport,
  getReportingSettings,
  giveVerdict,
  listReportsPage,
  removeReportRule,
  reportRules,
  saveFeedbackTemplateOf,
  updateReportingSettings,
} from './triage.service.js';

const tags = ['Triage'];
/** Every triage route reads or judges reported mail: the triage permission. */
const triage = { triage: true } as const;

/**
 * A reported message's HTML is anyone's: shown only in a frame the SPA sandboxes, and served with
 * a policy that makes it a sandboxed document of its own (no script, no same origin, no network:
 * no image, font or style from anywhere), whatever frames it.
 */
const HTML_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

const HtmlDocument = Type.Unsafe<string>({
  description: 'The reported message’s HTML, as received, inert (see the Content-Security-Policy).',
  content: { 'text/html': { schema: Type.String() } },
});

/** The feedback templates with the placeholders a template may use. */
const templatesAnswer = (results: Awaited<ReturnType<typeof feedbackTemplates>>) => ({
  results,
  placeholders: [...FEEDBACK_PLACEHOLDERS],
});

/** The triage inbox's admin routes, relative to `/admin/api/accounts/:accountId`. */
export const triageAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports',
    {
      schema: {
        tags,
        summary:
          'Real reports (reported messages that were no simulation), grouped, the most recently reported first',
        params: AccountParams,
        querystring: ReportListQuery,
        response: responses({ 200: ReportList }),
      },
      config: { ...triage, adminPermission: 'reports:read' },
    },
    async (request) =>
      listEnvelope(
        await listReportsPage(app.db, accountOf(request).accountId, listWindow(request.query), {
          ...(request.query.verdict && { verdict: request.query.verdict }),
          groups: accountOf(request).groups,
        }),
        presentAdminReportSummary,
      ),
  );

  app.get(
    '/reports/:reportId',
    {
      schema: {
        tags,
        summary:
          'One report: its reporters, verdict and safe view (headers, text, defanged URLs, attachments)',
        params: ReportParams,
        response: responses({ 200: AdminReportDetail }),
      },
      config: { ...triage, adminPermission: 'reports:read' },
    },
    async (request) => {
      const { accountId, groups } = accountOf(request);
      return presentAdminReportDetail(await getReport(app.db, accountId, request.params.reportId, groups));
    },
  );

  app.get(
    '/reports/:reportId/html',
    {
      schema: {
        tags,
        summary: 'The reported message’s HTML, inert: for a sandboxed frame only',
        params: ReportParams,
        response: responses({ 200: HtmlDocument }),
      },
      config: { ...triage, adminPermission: 'reports:read' },
    },
    async (request, reply) => {
      const found = await getReport(app.db, accountOf(request).accountId, request.params.reportId);
      const html = contentOfReport(found.report)?.html ?? '';
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', HTML_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .send(html);
    },
  );

  app.post(
    '/reports/:reportId/verdict',
    {
      schema: {
        tags,
        summary: 'Gives the report a verdict with a note; each reporter not yet told gets the feedback mail',
        params: ReportParams,
        body: VerdictBody,
        response: responses({ 200: AdminReportDetail }),
      },
      config: { ...triage, adminPermission: 'reports:write' },
    },
    async (request) => {
      const { accountId, user, groups } = accountOf(request);
      return presentAdminReportDetail(
        await giveVerdict(app.db, accountId, user.id, request.params.reportId, request.body, groups),
      );
    },
  );

  app.get(
    '/report-rules',
    {
      schema: {
        tags,
        summary: 'The rules that judge new reports',
        params: AccountParams,
        response: responses({ 200: RuleList }),
      },
      config: { ...triage, adminPermission: 'reports:read' },
    },
    async (request) => ({
      results: (await reportRules(app.db, accountOf(request).accountId)).map(presentRule),
    }),
  );

  app.post(
    '/report-rules',
    {
      schema: {
        tags,
        summary:
          'Adds a rule: new reports from this sender domain, or linking to this host (or names under it), get this verdict',
        params: AccountParams,
        body: RuleBody,
        response: responses({ 201: Rule }),
      },
      config: { ...triage, adminPermission: 'reports:write', adminScope: 'account' },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentRule(await addReportRule(app.db, accountOf(request).accountId, request.body))),
  );

  app.delete(
    '/report-rules/:ruleId',
    {
      schema: {
        tags,
        summary: 'Deletes a rule',
        params: RuleParams,
        response: responses({ 204: NoContent }),
      },
      config: { ...triage, adminPermission: 'reports:write', adminScope: 'account' },
    },
    async (request, reply) => {
      await removeReportRule(app.db, accountOf(request).accountId, request.params.ruleId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/reporting/settings',
    {
      schema: {
        tags,
        summary: 'The account’s reporting settings: its reporting id and how long reported content is kept',
        params: AccountParams,
        response: responses({ 200: ReportingSettings }),
      },
      config: { ...triage, adminPermission: 'reports:read' },
    },
    async (request) => getReportingSettings(app.db, accountOf(request).accountId),
  );

  app.put(
    '/reporting/settings',
    {
      schema: {
        tags,
        summary: 'Changes how many days reported content is kept (verdicts and counts stay)',
        params: AccountParams,
        body: ReportingSettingsBody,
        response: responses({ 200: ReportingSettings }),
      },
      config: { ...triage, adminPermission: 'reports:write', adminScope: 'account' },
    },
    async (request) => updateReportingSettings(app.db, accountOf(request).accountId, request.body),
  );

  app.get(
    '/reporting/feedback-templates',
    {
      schema: {
        tags,
        summary: 'The feedback mail of each verdict (the account’s own, or the default)',
        params: AccountParams,
        response: responses({ 200: FeedbackTemplates }),
      },
      config: { ...triage, adminPermission: 'reports:read' },
    },
    async (request) => templatesAnswer(await feedbackTemplates(app.db, accountOf(request).accountId)),
  );

  app.put(
    '/reporting/feedback-templates/:verdict',
    {
      schema: {
        tags,
        summary: 'Saves the account’s feedback mail for a verdict (an unknown {{placeholder}} is a 400)',
        params: VerdictParams,
        body: FeedbackTemplateBody,
        response: responses({ 200: FeedbackTemplates }),
      },
      config: { ...triage, adminPermission: 'reports:write', adminScope: 'account' },
    },
    async (request) =>
      templatesAnswer(
        await saveFeedbackTemplateOf(
          app.db,
          accountOf(request).accountId,
          request.params.verdict,
          request.body,
        ),
      ),
  );

  app.delete(
    '/reporting/feedback-templates/:verdict',
    {
      schema: {
        tags,
        summary: 'Restores the default feedback mail for a verdict',
        params: VerdictParams,
        response: responses({ 200: FeedbackTemplates }),
      },
      config: { ...triage, adminPermission: 'reports:write', adminScope: 'account' },
    },
    async (request) =>
      templatesAnswer(
        await saveFeedbackTemplateOf(app.db, accountOf(request).accountId, request.params.verdict, null),
      ),
  );
};
