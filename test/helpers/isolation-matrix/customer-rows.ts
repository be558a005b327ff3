import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { addGroupMembers } from '../../../src/modules/directory/groups/groups.membership.commands.js';
import { client } from '../factories.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { freshEmployee, freshGroup } from './world.js';

/** The Customer API's rows: the key is the account, so another account's ids are simply unknown. */

const C = '/api/api_gateway/customer';
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path id (text that is no id is a 404, like any unknown id)');
let serial = 0;

export const customerRows: Row[] = [
  row({
    route: `POST ${C}/employees/`,
    as: 'key',
    call: () => ({
      url: `${C}/employees/`,
      payload: { first_name: 'Ann', last_name: 'Lee', email: `ann.${++serial}.${Date.now()}@example.com` },
    }),
    success: {
      status: 201,
      check: (res) => expect(res.headers.location).toContain(`/customer/employees/${res.json().id}/`),
    },
    read: () => `${C}/employees/?page_size=1000`,
    otherAccount: {
      kind: 'custom',
      // Nothing of B's is named but an address: B's is free in A, and B's employee stays B's alone.
      run: async (w) => {
        const theirs = w.b.employees[0] as { id: number; email: string };
        const res = await client(w.app, w.a.key).post('/customer/employees/', {
          first_name: 'Same',
          last_name: 'Address',
          email: theirs.email.toUpperCase(),
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(w.b.employees.map((e) => e.id)).not.toContain(res.json().id);
      },
    },
    invalid: { call: () => ({ url: `${C}/employees/`, payload: { first_name: 'Ann' } }) },
  }),
  row({
    route: `GET ${C}/employees/`,
    as: 'key',
    call: () => ({ url: `${C}/employees/?page_size=1000` }),
    success: { status: 200 },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.employees.map((e) => e.id) },
    invalid: { call: () => ({ url: `${C}/employees/?page=0` }) },
  }),
  row({
    route: `GET ${C}/employees/:employee_id/`,
    as: 'key',
    object: (_w, side) => side.employees[0]?.id as number,
    call: (_side, id) => ({ url: `${C}/employees/${id}/` }),
    success: { status: 200, check: (res, side) => expect(res.json().id).toBe(side.employees[0]?.id) },
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `GET ${C}/groups/`,
    as: 'key',
    call: () => ({ url: `${C}/groups/?page_size=1000` }),
    success: { status: 200 },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.groups },
    invalid: { call: () => ({ url: `${C}/groups/?page_size=abc` }) },
  }),
  row({
    route: `GET ${C}/groups/:group_id/`,
    as: 'key',
    object: (_w, side) => side.groups[0] as number,
    call: (_side, id) => ({ url: `${C}/groups/${id}/` }),
    success: { status: 200, check: (res) => expect(res.headers.etag).toBeDefined() },
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `PUT ${C}/groups/:group_id/`,
    as: 'key',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({
      url: `${C}/groups/${id}/`,
      payload: { employee_ids: [side.employees[0]?.id], name: 'Taken over' },
    }),
    success: { status: 200, check: (res) => expect(res.json().employees).toHaveLength(1) },
    read: (_side, id) => `${C}/groups/${id}/`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: { call: (_side, id) => ({ url: `${C}/groups/${id}/`, payload: { employee_ids: 'all' } }) },
  }),
  row({
    route: `POST ${C}/groups/`,
    as: 'key',
    call: () => ({ url: `${C}/groups/`, payload: { name: `Group ${++serial}` } }),
    success: {
      status: 201,
      check: (res) => expect(res.headers.location).toContain(`/customer/groups/${res.json().id}/`),
    },
    read: () => ({ url: `${C}/groups/?page_size=1000`, view: (body) => (body as { count: number }).count }),
    otherAccount: na('names nothing but the new group: the key is the account'),
    invalid: { call: () => ({ url: `${C}/groups/`, payload: { description: 'no name' } }) },
  }),
  row({
    route: `PATCH ${C}/groups/:group_id/`,
    as: 'key',
    object: (w, side) => freshGroup(w.app, side),
    call: (_side, id) => ({ url: `${C}/groups/${id}/`, payload: { description: 'Changed' } }),
    success: { status: 200, check: (res) => expect(res.json().description).toBe('Changed') },
    read: (_side, id) => `${C}/groups/${id}/`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: { call: (_side, id) => ({ url: `${C}/groups/${id}/`, payload: { name: 7 } }) },
  }),
  row({
    route: `DELETE ${C}/groups/:group_id/`,
    as: 'key',
    object: (w, side) => freshGroup(w.app, side),
    call: (_side, id) => ({ url: `${C}/groups/${id}/` }),
    success: { status: 204 },
    read: (_side, id) => `${C}/groups/${id}/`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `POST ${C}/groups/:group_id/members/`,
    as: 'key',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({
      url: `${C}/groups/${id}/members/`,
      payload: { employee_ids: [side.employees[0]?.id] },
    }),
    success: { status: 200, check: (res) => expect(res.json().employees).toHaveLength(1) },
    read: (_side, id) => `${C}/groups/${id}/`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: {
      call: (_side, id) => ({ url: `${C}/groups/${id}/members/`, payload: { employee_ids: 'all' } }),
    },
  }),
  row({
    route: `DELETE ${C}/groups/:group_id/members/`,
    as: 'key',
    object: async (w, side) => {
      const id = await freshGroup(w.app, side);
      await addGroupMembers(w.app.db, side.accountId, id, [side.employees[0]?.id as number]);
      return id;
    },
    call: (side, id) => ({
      url: `${C}/groups/${id}/members/`,
      payload: { employee_ids: [side.employees[0]?.id] },
    }),
    success: { status: 200, check: (res) => expect(res.json().employees).toEqual([]) },
    read: (_side, id) => `${C}/groups/${id}/`,
    otherAccount: { kind: 'object', notFound: 'group_not_found', missing: () => NEVER },
    invalid: { call: (_side, id) => ({ url: `${C}/groups/${id}/members/`, payload: {} }) },
  }),
  row({
    route: `PATCH ${C}/employees/:employee_id/`,
    as: 'key',
    object: (w, side) => freshEmployee(w.app, side),
    call: (_side, id) => ({ url: `${C}/employees/${id}/`, payload: { first_name: 'Renamed' } }),
    success: { status: 200, check: (res) => expect(res.json().first_name).toBe('Renamed') },
    read: (_side, id) => `${C}/employees/${id}/`,
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: { call: (_side, id) => ({ url: `${C}/employees/${id}/`, payload: { first_name: 7 } }) },
  }),
  row({
    route: `DELETE ${C}/employees/:employee_id/`,
    as: 'key',
    object: (w, side) => freshEmployee(w.app, side),
    call: (_side, id) => ({ url: `${C}/employees/${id}/` }),
    success: { status: 204 },
    read: (_side, id) => `${C}/employees/${id}/`,
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `POST ${C}/employees/bulk/`,
    as: 'key',
    call: () => ({
      url: `${C}/employees/bulk/`,
      payload: {
        employees: [
          { first_name: 'Bulk', last_name: 'Lee', email: `bulk.${++serial}.${Date.now()}@example.com` },
        ],
      },
    }),
    success: { status: 200, check: (res) => expect(res.json().counts).toMatchObject({ created: 1 }) },
    read: () => `${C}/employees/?page_size=1000`,
    otherAccount: {
      kind: 'custom',
      // Only addresses are named: B's address makes a new employee of A's; B's stays as it was.
      run: async (w) => {
        const theirs = w.b.employees.at(-1) as { id: number; email: string };
        const before = await client(w.app, w.b.key).get(`/customer/employees/${theirs.id}/`);
        const res = await client(w.app, w.a.key).post('/customer/employees/bulk/', {
          employees: [{ first_name: 'Same', last_name: 'Address', email: theirs.email.toUpperCase() }],
        });
        expect(res.statusCode, res.body).toBe(200);
        // Created, or unchanged when another row's check already made A's employee with it.
        expect(['created', 'unchanged']).toContain(res.json().results[0].status);
        expect(w.b.employees.map((e) => e.id)).not.toContain(res.json().results[0].id);
        const after = await client(w.app, w.b.key).get(`/customer/employees/${theirs.id}/`);
        expect(after.body).toBe(before.body);
      },
    },
    invalid: { call: () => ({ url: `${C}/employees/bulk/`, payload: { employees: [] } }) },
  }),
  ...(['employees', 'groups'] as const).map((resource) =>
    row({
      route: `GET ${C}/${resource}/deleted/`,
      as: 'key',
      call: () => ({ url: `${C}/${resource}/deleted/?page_size=1000` }),
      success: { status: 200 },
      otherAccount: {
        kind: 'custom',
        // B's deletions are in B's list and never in A's.
        run: async (w) => {
          const id =
            resource === 'employees' ? await freshEmployee(w.app, w.b) : await freshGroup(w.app, w.b);
          const deleted = await client(w.app, w.b.key).request('DELETE', `/customer/${resource}/${id}/`);
          expect(deleted.statusCode).toBe(204);
          const theirs = await client(w.app, w.b.key).get(`/customer/${resource}/deleted/?page_size=1000`);
          expect(ids(theirs)).toContain(id);
          const mine = await client(w.app, w.a.key).get(`/customer/${resource}/deleted/?page_size=1000`);
          expect(mine.statusCode).toBe(200);
          expect(ids(mine)).not.toContain(id);
        },
      },
      invalid: { call: () => ({ url: `${C}/${resource}/deleted/?since=yesterday` }) },
    }),
  ),
  row({
    route: `GET ${C}/campaigns/training/`,
    as: 'key',
    call: () => ({ url: `${C}/campaigns/training/?page_size=1000` }),
    success: { status: 200 },
    otherAccount: { kind: 'list', ids, theirs: (w) => [w.b.draft, w.b.active.campaignId] },
    invalid: { call: () => ({ url: `${C}/campaigns/training/?page=-1` }) },
  }),
  row({
    route: `GET ${C}/campaigns/training/:campaign_id/`,
    as: 'key',
    object: (_w, side) => side.draft,
    call: (_side, id) => ({ url: `${C}/campaigns/training/${id}/` }),
    success: { status: 200 },
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `GET ${C}/campaigns/training/:campaign_id/enrollments/`,
    as: 'key',
    object: (_w, side) => side.active.campaignId,
    call: (_side, id) => ({ url: `${C}/campaigns/training/${id}/enrollments/` }),
    success: {
      status: 200,
      check: (res, side) => expect(ids(res).sort()).toEqual([...side.active.enrollmentIds].sort()),
    },
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: {
      call: (_side, id) => ({ url: `${C}/campaigns/training/${id}/enrollments/?page_size=0` }),
    },
  }),
];
