import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { adminApi, type Side } from './world.js';

/** The admin API's rows for an account's phishing templates and phishing settings. */

const API = '/admin/api';

export const PHISHING_TEMPLATE = {
  name: 'Parking permit renewal',
  subject: 'Your parking permit expires Friday',
  sender_name: 'Facilities',
  sender_address: 'facilities',
  html: '<p>Hi {{first_name}}, <a href="{{link}}">Renew permit</a></p>',
  text: 'Hi {{first_name}}, renew permit: {{link}}',
  landing_html: '<form><input name="password"><button>Go</button></form>',
  difficulty: 2,
  category: 'credential_harvest',
  language: 'en',
  red_flags: [
    { text: 'A deadline.', part: 'subject', quote: 'expires Friday' },
    { text: 'A link to sign in.', part: 'link', quote: 'Renew permit' },
  ],
};
const BAD = { ...PHISHING_TEMPLATE, subject: 'Hi {{frist_name}}' };

/** A new custom template of the side's account. */
export async function freshPhishingTemplate(app: FastifyInstance, side: Pick<Side, 'accountId' | 'admin'>) {
  const res = await adminApi(
    app,
    side.admin,
    'POST',
    `/accounts/${side.accountId}/phishing/templates`,
    201,
    PHISHING_TEMPLATE,
  );
  return res.json().key as string;
}

// The list's row needs B's template by key synchronously: made by `object` (which the matrix
// calls for B first) and remembered per side.
const listed = new WeakMap<Side, string>();
async function listedTemplate(app: FastifyInstance, side: Side): Promise<string> {
  let key = listed.get(side);
  if (!key) {
    key = await freshPhishingTemplate(app, side);
    listed.set(side, key);
  }
  return key;
}

const missing = () => `custom:${NEVER}`;
const keyOnly = na('no input but the path (an unknown key is a 404)');
const templates = (side: Side) => `${acct(side)}/phishing/templates`;

export const adminPhishingTemplateRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/phishing/templates`,
    as: 'admin',
    object: (w, side) => listedTemplate(w.app, side),
    call: (side) => ({ url: `${templates(side)}?page_size=200` }),
    success: { status: 200, check: (res) => expect(res.json().count).toBeGreaterThanOrEqual(15) },
    otherAccount: {
      kind: 'list',
      ids: (res) => res.json().results.map((t: { key: string }) => t.key),
      theirs: (w) => [listed.get(w.b) ?? 'custom:none'],
    },
    invalid: { call: (side) => ({ url: `${templates(side)}?difficulty=9` }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/phishing/templates`,
    as: 'admin',
    call: (side) => ({ url: templates(side), payload: PHISHING_TEMPLATE }),
    success: { status: 201, check: (res) => expect(res.json().key).toMatch(/^custom:\d+$/) },
    read: (side) => `${templates(side)}?source=custom&page_size=200`,
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: templates(side), payload: BAD }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/phishing/templates/preview`,
    as: 'admin',
    call: (side) => ({ url: `${templates(side)}/preview`, payload: PHISHING_TEMPLATE }),
    success: {
      status: 200,
      check: (res) => {
        expect(res.json().errors).toEqual({});
        expect(res.json().email.html).toContain('Hi Alex');
      },
    },
    read: (side) => `${templates(side)}?source=custom&page_size=200`,
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${templates(side)}/preview`, payload: { difficulty: 'hard' } }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/phishing/templates/:templateKey`,
    as: 'admin',
    object: (w, side) => listedTemplate(w.app, side),
    call: (side, key) => ({ url: `${templates(side)}/${key}` }),
    success: { status: 200, check: (res) => expect(res.json().name).toBe(PHISHING_TEMPLATE.name) },
    otherAccount: { kind: 'object', notFound: 'phishing_template_not_found', missing },
    invalid: keyOnly,
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/phishing/templates/:templateKey`,
    as: 'admin',
    object: (w, side) => freshPhishingTemplate(w.app, side),
    call: (side, key) => ({
      url: `${templates(side)}/${key}`,
      payload: { ...PHISHING_TEMPLATE, name: 'Changed' },
    }),
    success: { status: 200, check: (res) => expect(res.json().name).toBe('Changed') },
    read: (side, key) => `${templates(side)}/${key}`,
    otherAccount: { kind: 'object', notFound: 'phishing_template_not_found', missing },
    invalid: { call: (side, key) => ({ url: `${templates(side)}/${key}`, payload: BAD }) },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/phishing/templates/:templateKey`,
    as: 'admin',
    object: (w, side) => freshPhishingTemplate(w.app, side),
    call: (side, key) => ({ url: `${templates(side)}/${key}` }),
    success: { status: 204 },
    read: (side, key) => `${templates(side)}/${key}`,
    otherAccount: { kind: 'object', notFound: 'phishing_template_not_found', missing },
    invalid: keyOnly,
  }),
  row({
    route: `POST ${API}/accounts/:accountId/phishing/templates/:templateKey/clone`,
    as: 'admin',
    object: (w, side) => listedTemplate(w.app, side),
    call: (side, key) => ({ url: `${templates(side)}/${key}/clone`, payload: {} }),
    success: {
      status: 201,
      check: (res, _side, key) => expect(res.json()).toMatchObject({ cloned_from: key, source: 'custom' }),
    },
    read: (side) => `${templates(side)}?source=custom&page_size=200`,
    otherAccount: { kind: 'object', notFound: 'phishing_template_not_found', missing },
    invalid: { call: (side, key) => ({ url: `${templates(side)}/${key}/clone`, payload: { name: '' } }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/phishing/settings`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/phishing/settings` }),
    success: { status: 200, check: (res) => expect(res.json().scanner_networks).toEqual(expect.any(Array)) },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/phishing/settings`,
    as: 'admin',
    call: (side) => ({
      url: `${acct(side)}/phishing/settings`,
      payload: { scanner_networks: [`203.0.113.${side.accountId % 250}`] },
    }),
    success: { status: 200, check: (res) => expect(res.json().scanner_networks).toHaveLength(1) },
    read: (side) => `${acct(side)}/phishing/settings`,
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({
        url: `${acct(side)}/phishing/settings`,
        payload: { scanner_networks: ['10.0.0.0/4'] },
      }),
    },
  }),
];
