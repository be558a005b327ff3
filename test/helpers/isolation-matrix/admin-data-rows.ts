import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { client } from '../factories.js';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { freshEmployee, freshGroup, type Side, type World } from './world.js';

/** The admin API's rows for an account's employees and groups. */

const API = '/admin/api';
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const csvIds = (res: LightMyRequestResponse): number[] =>
  res.body
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => Number(line.split(',')[0]));
const unique = () => `${Date.now()}.${Math.random().toString(36).slice(2)}`;
const noInput = na('no input but the path (text that is no id is a 404, like any unknown id)');

/** A new group of the side with its first employee as member. */
async function groupWithMember(w: World, side: Side) {
  const id = await freshGroup(w.app, side);
  const res = await client(w.app, side.key).put(`/customer/groups/${id}/`, {
    employee_ids: [side.employees[0]?.id],
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return id;
}

const employeeRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/employees`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/employees?page_size=200` }),
    success: {
      status: 200,
      check: (res, side) => expect(ids(res)).toEqual(expect.arrayContaining(side.employees.map((e) => e.id))),
    },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.employees.map((e) => e.id) },
    invalid: { call: (side) => ({ url: `${acct(side)}/employees?sort=shoe_size` }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/employees`,
    as: 'admin',
    call: (side) => ({
      url: `${acct(side)}/employees`,
      payload: { first_name: 'Ann', last_name: 'Lee', email: `ann.${unique()}@example.com` },
    }),
    success: { status: 201 },
    read: (side) => ({ url: `${acct(side)}/employees`, view: (body) => (body as { count: number }).count }),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/employees`, payload: { first_name: 'Ann' } }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/employees/import`,
    as: 'admin',
    call: (side) => ({
      url: `${acct(side)}/employees/import`,
      payload: { rows: [{ first_name: 'Imp', last_name: 'Orted', email: `imp.${unique()}@example.com` }] },
    }),
    success: { status: 200, check: (res) => expect(res.json().created).toBe(1) },
    read: (side) => ({ url: `${acct(side)}/employees`, view: (body) => (body as { count: number }).count }),
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({ url: `${acct(side)}/employees/import`, payload: { rows: 'all of them' } }),
    },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/employees/export.csv`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/employees/export.csv` }),
    success: { status: 200, check: (res) => expect(res.headers['content-type']).toContain('text/csv') },
    otherAccount: { kind: 'list', ids: csvIds, theirs: (w) => w.b.employees.map((e) => e.id) },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `GET ${API}/accounts/:accountId/employees/:employeeId`,
    as: 'admin',
    object: (_w, side) => side.employees[0]?.id as number,
    call: (side, id) => ({ url: `${acct(side)}/employees/${id}` }),
    success: { status: 200, check: (res, side) => expect(res.json().id).toBe(side.employees[0]?.id) },
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `PATCH ${API}/accounts/:accountId/employees/:employeeId`,
    as: 'admin',
    object: (w, side) => freshEmployee(w.app, side),
    call: (side, id) => ({ url: `${acct(side)}/employees/${id}`, payload: { first_name: 'Renamed' } }),
    success: { status: 200, check: (res) => expect(res.json().first_name).toBe('Renamed') },
    read: (side, id) => `${acct(side)}/employees/${id}`,
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: `${acct(side)}/employees/${id}`, payload: { nickname: 'x' } }) },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/employees/:employeeId`,
    as: 'admin',
    object: (w, side) => freshEmployee(w.app, side),
    call: (side, id) => ({ url: `${acct(side)}/employees/${id}` }),
    success: { status: 204 },
    read: (side, id) => `${acct(side)}/employees/${id}`,
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
];

const groupRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/groups`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/groups?page_size=200` }),
    success: { status: 200 },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.groups },
    invalid: { call: (side) => ({ url: `${acct(side)}/groups?page=0` }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/groups`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/groups`, payload: { name: `Group ${unique()}` } }),
    success: { status: 201 },
    read: (side) => ({ url: `${acct(side)}/groups`, view: (body) => (body as { count: number }).count }),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/groups`, payload: { description: 'no name' } }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/groups/:groupId`,
    as: 'admin',
    object: (_w, side) => side.groups[0] as number,
    call: (side, id) => ({ url: `${acct(side)}/groups/${id}` }),
    success: { status: 200, check: (res) => expect(res.json().employee_count).toBe(2) },
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `PATCH ${API}/accounts/:accountId/groups/:groupId`,
    as: 'admin',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({ url: `${acct(side)}/groups/${id}`, payload: { description: 'Changed' } }),
    success: { status: 200, check: (res) => expect(res.json().description).toBe('Changed') },
    read: (side, id) => `${acct(side)}/groups/${id}`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: `${acct(side)}/groups/${id}`, payload: { name: 7 } }) },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/groups/:groupId`,
    as: 'admin',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({ url: `${acct(side)}/groups/${id}` }),
    success: { status: 204 },
    read: (side, id) => `${acct(side)}/groups/${id}`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `GET ${API}/accounts/:accountId/groups/:groupId/members`,
    as: 'admin',
    object: (_w, side) => side.groups[0] as number,
    call: (side, id) => ({ url: `${acct(side)}/groups/${id}/members` }),
    success: { status: 200, check: (res) => expect(res.json().count).toBe(2) },
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: `${acct(side)}/groups/${id}/members?page_size=abc` }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/groups/:groupId/members`,
    as: 'admin',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({
      url: `${acct(side)}/groups/${id}/members`,
      payload: { employee_ids: [side.employees[0]?.id] },
    }),
    success: { status: 200, check: (res) => expect(res.json().added).toBe(1) },
    read: (side, id) => `${acct(side)}/groups/${id}/members`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: {
      call: (side, id) => ({ url: `${acct(side)}/groups/${id}/members`, payload: { employee_ids: 'all' } }),
    },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/groups/:groupId/members/remove`,
    as: 'admin',
    object: groupWithMember,
    call: (side, id) => ({
      url: `${acct(side)}/groups/${id}/members/remove`,
      payload: { employee_ids: [side.employees[0]?.id] },
    }),
    success: { status: 200, check: (res) => expect(res.json().removed).toBe(1) },
    read: (side, id) => `${acct(side)}/groups/${id}/members`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: {
      call: (side, id) => ({
        url: `${acct(side)}/groups/${id}/members/remove`,
        payload: { employee_ids: [0] },
      }),
    },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/groups/:groupId/members/by-email`,
    as: 'admin',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({
      url: `${acct(side)}/groups/${id}/members/by-email`,
      payload: { emails: [side.employees[1]?.email] },
    }),
    success: { status: 200, check: (res) => expect(res.json().added).toBe(1) },
    read: (side, id) => `${acct(side)}/groups/${id}/members`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: {
      call: (side, id) => ({ url: `${acct(side)}/groups/${id}/members/by-email`, payload: { emails: 'x' } }),
    },
  }),
];

export const adminDataRows: Row[] = [...employeeRows, ...groupRows];
