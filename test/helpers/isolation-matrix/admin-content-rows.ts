import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { COURSE, freshCourse, freshMessages } from './world.js';

/** The admin API's rows for an account's courses and its outbox. */

const API = '/admin/api';
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path (text that is no id is a 404, like any unknown id)');

const courseRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/courses`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/courses` }),
    success: { status: 200, check: (res, side) => expect(JSON.stringify(res.json())).toContain(side.course) },
    otherAccount: {
      kind: 'list',
      ids: (res) => res.json().results.map((c: { key: string }) => c.key),
      theirs: (w) => [w.b.course],
    },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `POST ${API}/accounts/:accountId/courses`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/courses`, payload: COURSE }),
    success: { status: 201, check: (res) => expect(res.json().key).toMatch(/^custom-\d+$/) },
    read: (side) => `${acct(side)}/courses`,
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/courses`, payload: { ...COURSE, minutes: 0 } }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/courses/:courseKey`,
    as: 'admin',
    object: (_w, side) => side.course,
    call: (side, key) => ({ url: `${acct(side)}/courses/${key}` }),
    success: { status: 200, check: (res, side) => expect(res.json().key).toBe(side.course) },
    otherAccount: { kind: 'object', notFound: 'course_not_found', missing: () => `custom-${NEVER}` },
    invalid: na('no input but the path (an unknown key is a 404)'),
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/courses/:courseKey`,
    as: 'admin',
    object: (w, side) => freshCourse(w.app, side),
    call: (side, key) => ({ url: `${acct(side)}/courses/${key}`, payload: { ...COURSE, title: 'Changed' } }),
    success: { status: 200, check: (res) => expect(res.json().title).toBe('Changed') },
    read: (side, key) => `${acct(side)}/courses/${key}`,
    otherAccount: { kind: 'object', notFound: 'course_not_found', missing: () => `custom-${NEVER}` },
    invalid: {
      call: (side, key) => ({ url: `${acct(side)}/courses/${key}`, payload: { ...COURSE, minutes: 0 } }),
    },
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/courses/:courseKey/quiz-rules`,
    as: 'admin',
    object: (w, side) => freshCourse(w.app, side),
    call: (side, key) => ({
      url: `${acct(side)}/courses/${key}/quiz-rules`,
      payload: { max_attempts: 3, answers_shown: 'never' },
    }),
    success: {
      status: 200,
      check: (res) => expect(res.json()).toEqual({ max_attempts: 3, answers_shown: 'never' }),
    },
    read: (side, key) => `${acct(side)}/courses/${key}`,
    otherAccount: { kind: 'object', notFound: 'course_not_found', missing: () => `custom-${NEVER}` },
    invalid: {
      call: (side, key) => ({
        url: `${acct(side)}/courses/${key}/quiz-rules`,
        payload: { max_attempts: 0, answers_shown: 'never' },
      }),
    },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/courses/:courseKey`,
    as: 'admin',
    object: (w, side) => freshCourse(w.app, side),
    call: (side, key) => ({ url: `${acct(side)}/courses/${key}` }),
    success: { status: 204 },
    read: (side, key) => `${acct(side)}/courses/${key}`,
    otherAccount: { kind: 'object', notFound: 'course_not_found', missing: () => `custom-${NEVER}` },
    invalid: na('no input but the path (an unknown key is a 404)'),
  }),
];

const messageRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/messages`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/messages?page_size=200` }),
    success: { status: 200 },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.active.messageIds },
    invalid: { call: (side) => ({ url: `${acct(side)}/messages?status=lost` }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/messages/summary`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/messages/summary` }),
    success: { status: 200, check: (res) => expect(res.json().transport).toBe('outbox') },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `GET ${API}/accounts/:accountId/messages/:messageId`,
    as: 'admin',
    object: (_w, side) => side.active.messageIds[0] as number,
    call: (side, id) => ({ url: `${acct(side)}/messages/${id}` }),
    success: { status: 200, check: (res, side) => expect(res.json().id).toBe(side.active.messageIds[0]) },
    otherAccount: { kind: 'object', notFound: 'message_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `POST ${API}/accounts/:accountId/messages/:messageId/retry`,
    as: 'admin',
    object: async (w, side) => (await freshMessages(w.app, side, 'failed')).messageId,
    call: (side, id) => ({ url: `${acct(side)}/messages/${id}/retry` }),
    success: { status: 200, check: (res) => expect(res.json().status).toBe('queued') },
    read: (side, id) => `${acct(side)}/messages/${id}`,
    otherAccount: { kind: 'object', notFound: 'message_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
];

export const adminContentRows: Row[] = [...courseRows, ...messageRows];
