import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import {
  freshReport,
  freshRule,
  knownReports,
  knownRules,
  reportOf,
  ruleOf,
  unique,
} from './report-world.js';
import { adminApi, freshAdmin, type Side } from './world.js';

/**
 * The admin API's triage inbox: real reports and their verdicts, the rules that judge new ones,
 * the reporting settings and the feedback mail of each verdict. Under `/accounts/:accountId`:
 * another account's path is a 404 Account not found; another account's report or rule under
 * one's own path is as one that never existed, and stays as it was.
 */

const A = '/admin/api/accounts/:accountId';
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path (text that is no id is a 404, like any unknown id)');
const accountOnly = na('takes no input but the account');
const report = (side: Side, id: number) => `${acct(side)}/reports/${id}`;
const rules = (side: Side) => `${acct(side)}/report-rules`;
const settings = (side: Side) => `${acct(side)}/reporting/settings`;
const templates = (side: Side) => `${acct(side)}/reporting/feedback-templates`;
const missingReport = {
  kind: 'object' as const,
  notFound: 'report_not_found' as const,
  missing: () => NEVER,
};
const TEMPLATE = { subject: 'All clear, {{first_name}}', body: 'The message "{{subject}}" is {{verdict}}.' };

/** The side with its own feedback mail for `spam` (what restoring the default removes). */
async function withSpamTemplate(app: Parameters<typeof adminApi>[0], side: Side) {
  await adminApi(
    app,
    side.admin,
    'PUT',
    `/accounts/${side.accountId}/reporting/feedback-templates/spam`,
    200,
    {
      subject: 'Spam, {{first_name}}',
      body: 'Just spam: {{subject}}.',
    },
  );
  return side;
}

export const adminTriageRows: Row[] = [
  row<number>({
    route: `PUT ${A}/admins/:id/triage`,
    as: 'admin',
    // Another administrator of the side (a holder may withdraw anyone's but the last holder's).
    object: async (w, side) => (await freshAdmin(w.app, side)).user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/triage`, payload: { can_triage: false } }),
    success: {
      status: 200,
      check: (res, _side, id) => expect(res.json()).toMatchObject({ id, can_triage: false }),
    },
    read: (side) => ({
      url: `${acct(side)}/admins`,
      view: (body) =>
        (body as { results: { id: number; can_triage: boolean }[] }).results.map(({ id, can_triage }) => ({
          id,
          can_triage,
        })),
    }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: {
      call: (side, id) => ({ url: `${acct(side)}/admins/${id}/triage`, payload: { can_triage: 'no' } }),
    },
  }),
  row<number>({
    route: `GET ${A}/reports`,
    as: 'admin',
    object: (w, side) => reportOf(w, side),
    call: (side) => ({ url: `${acct(side)}/reports?page_size=200` }),
    success: { status: 200, check: (res, _side, id) => expect(ids(res)).toContain(id) },
    otherAccount: { kind: 'list', ids, theirs: (w) => knownReports(w.b) },
    invalid: { call: (side) => ({ url: `${acct(side)}/reports?verdict=evil` }) },
  }),
  row<number>({
    route: `GET ${A}/reports/:reportId`,
    as: 'admin',
    object: (w, side) => reportOf(w, side),
    call: (side, id) => ({ url: report(side, id) }),
    success: {
      status: 200,
      check: (res, _side, id) =>
        expect(res.json()).toMatchObject({ id, message: { has_html: true, urls: [expect.any(Object)] } }),
    },
    otherAccount: missingReport,
    invalid: noInput,
  }),
  row<number>({
    route: `GET ${A}/reports/:reportId/html`,
    as: 'admin',
    object: (w, side) => reportOf(w, side),
    call: (side, id) => ({ url: `${report(side, id)}/html` }),
    success: {
      status: 200,
      check: (res) => {
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['content-security-policy']).toContain('sandbox');
        expect(res.body).toContain('evil.example/reset');
      },
    },
    otherAccount: missingReport,
    invalid: noInput,
  }),
  row<number>({
    route: `POST ${A}/reports/:reportId/verdict`,
    as: 'admin',
    object: (w, side) => freshReport(w, side),
    call: (side, id) => ({
      url: `${report(side, id)}/verdict`,
      payload: { verdict: 'malicious', note: 'Blocked at the gateway.' },
    }),
    success: {
      status: 200,
      check: (res, side, id) =>
        expect(res.json()).toMatchObject({
          id,
          verdict: 'malicious',
          verdict_note: 'Blocked at the gateway.',
          verdict_by: { kind: 'admin', id: side.admin.user.id },
        }),
    },
    read: (side, id) => report(side, id),
    otherAccount: missingReport,
    invalid: { call: (side, id) => ({ url: `${report(side, id)}/verdict`, payload: { verdict: 'evil' } }) },
  }),
  row<number>({
    route: `GET ${A}/report-rules`,
    as: 'admin',
    object: (w, side) => ruleOf(w, side),
    call: (side) => ({ url: rules(side) }),
    success: { status: 200, check: (res, _side, id) => expect(ids(res)).toContain(id) },
    otherAccount: { kind: 'list', ids, theirs: (w) => knownRules(w.b) },
    invalid: accountOnly,
  }),
  row<string>({
    route: `POST ${A}/report-rules`,
    as: 'admin',
    object: () => `${unique()}.news.example`,
    call: (side, value) => ({
      url: rules(side),
      payload: {
        kind: 'sender_domain',
        value: value.toUpperCase(),
        verdict: 'safe',
        note: 'Our newsletter.',
      },
    }),
    success: {
      status: 201,
      check: (res, _side, value) =>
        expect(res.json()).toMatchObject({ kind: 'sender_domain', value, verdict: 'safe' }),
    },
    read: (side) => rules(side),
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({
        url: rules(side),
        payload: { kind: 'url_host', value: 'not a host', verdict: 'spam' },
      }),
    },
  }),
  row<number>({
    route: `DELETE ${A}/report-rules/:ruleId`,
    as: 'admin',
    object: (w, side) => freshRule(w, side),
    call: (side, id) => ({ url: `${rules(side)}/${id}` }),
    success: { status: 204 },
    read: (side) => rules(side),
    otherAccount: { kind: 'object', notFound: 'report_rule_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `GET ${A}/reporting/settings`,
    as: 'admin',
    call: (side) => ({ url: settings(side) }),
    success: { status: 200, check: (res) => expect(res.json().retention_days).toEqual(expect.any(Number)) },
    otherAccount: { kind: 'account' },
    invalid: accountOnly,
  }),
  row({
    route: `PUT ${A}/reporting/settings`,
    as: 'admin',
    call: (side) => ({ url: settings(side), payload: { retention_days: 30 } }),
    success: { status: 200, check: (res) => expect(res.json().retention_days).toBe(30) },
    read: (side) => settings(side),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: settings(side), payload: { retention_days: 0 } }) },
  }),
  row({
    route: `GET ${A}/reporting/feedback-templates`,
    as: 'admin',
    call: (side) => ({ url: templates(side) }),
    success: {
      status: 200,
      check: (res) =>
        expect(
          res
            .json()
            .results.map((t: { verdict: string }) => t.verdict)
            .sort(),
        ).toEqual(['malicious', 'safe', 'spam']),
    },
    otherAccount: { kind: 'account' },
    invalid: accountOnly,
  }),
  row({
    route: `PUT ${A}/reporting/feedback-templates/:verdict`,
    as: 'admin',
    call: (side) => ({ url: `${templates(side)}/safe`, payload: TEMPLATE }),
    success: {
      status: 200,
      check: (res) =>
        expect(res.json().results).toContainEqual({ verdict: 'safe', ...TEMPLATE, is_default: false }),
    },
    read: (side) => templates(side),
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({
        url: `${templates(side)}/safe`,
        payload: { subject: 'Hi {{firstname}}', body: 'It is safe.' },
      }),
    },
  }),
  row<Side>({
    route: `DELETE ${A}/reporting/feedback-templates/:verdict`,
    as: 'admin',
    object: (w, side) => withSpamTemplate(w.app, side),
    call: (side) => ({ url: `${templates(side)}/spam` }),
    success: {
      status: 200,
      check: (res) =>
        expect(res.json().results).toContainEqual(
          expect.objectContaining({ verdict: 'spam', is_default: true }),
        ),
    },
    read: (side) => templates(side),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${templates(side)}/evil` }) },
  }),
];
