import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AdminClient, anonymousClient, signInAs } from '../admin.js';
import { ALL_GRANTS, client, makeCampaign, makeEmployee, makeGroup, makeKey } from '../factories.js';
import { makeScimToken } from '../scim.js';

/**
 * Two accounts, A and B, each with a key (every permission), an administrator and some of everything, plus an
 * operator; made once for the whole matrix. B holds more than A, so a leak would show in a
 * count. Cases that change an object make their own (the `fresh*` functions).
 */

export interface Side {
  accountId: number;
  key: string;
  admin: AdminClient;
  employees: { id: number; email: string }[];
  groups: number[];
  /** A draft campaign targeting groups[0]. */
  draft: number;
  /** A launched campaign: its enrollments and queued invitations. */
  active: { campaignId: number; enrollmentIds: number[]; messageIds: number[] };
  course: string;
  keyIds: number[];
  invitationIds: number[];
  /** A SCIM bearer token of the account, and the ids of its SCIM tokens. */
  scimToken: string;
  scimTokenIds: number[];
}

export interface World {
  app: FastifyInstance;
  a: Side;
  b: Side;
  operator: AdminClient;
  /** No session: the CSRF cookie and token a browser starts with. */
  anonymous: { headers: Record<string, string> };
}

const DAY = 86_400_000;
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

export const COURSE = {
  title: 'Travel policy',
  summary: 'Laptops abroad.',
  minutes: 10,
  pass_mark: 50,
  lessons: [{ title: 'Before you fly', markdown: '## Pack light' }],
  quiz: [{ question: 'Border agents ask for your laptop. You…', choices: ['refuse', 'call us'], answer: 1 }],
};

/** An admin API call that must succeed (setting up, not under test). */
export async function adminApi(
  app: FastifyInstance,
  as: AdminClient,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  status: number,
  payload?: object,
): Promise<LightMyRequestResponse> {
  const res = await app.inject({
    method,
    url: `/admin/api${url}`,
    headers: as.headers,
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);

async function makeSide(app: FastifyInstance, operator: AdminClient, size: number): Promise<Side> {
  // Every grant, reports:read and audit:read included (the triage inbox's and the audit log's rows read them with the side's key).
  const { accountId, key, keyId } = await makeKey(app, {
    rateLimit: 1_000_000,
    grants: [...ALL_GRANTS, 'reports:r', 'audit:r'],
  });
  const admin = await signInAs(app, { role: 'account_admin', accountId });
  const employees = [];
  for (let i = 0; i < size + 1; i++) employees.push(await makeEmployee(app, accountId));
  const groups = [];
  for (let i = 0; i < size; i++) groups.push((await makeGroup(app, accountId)).id);
  const api = client(app, key);
  const members = { employee_ids: employees.slice(0, 2).map((e) => e.id) };
  const put = await api.put(`/customer/groups/${groups[0]}/`, members);
  if (put.statusCode !== 200) throw new Error(put.body);
  const side = {
    accountId,
    key,
    admin,
    employees,
    groups,
    draft: (await makeCampaign(app, accountId, [groups[0] as number])).id,
    keyIds: [keyId],
  };
  const campaignId = await freshActive(app, side);
  const base = `/accounts/${accountId}`;
  const enrollments = await adminApi(app, admin, 'GET', `${base}/campaigns/${campaignId}/enrollments`, 200);
  const messages = await adminApi(app, admin, 'GET', `${base}/messages?campaign_id=${campaignId}`, 200);
  const course = (await adminApi(app, admin, 'POST', `${base}/courses`, 201, COURSE)).json().key as string;
  const invitation = await freshInvitation(app, operator, accountId);
  const scim = await makeScimToken(app, accountId);
  return {
    ...side,
    scimToken: scim.token,
    scimTokenIds: [scim.tokenId],
    active: { campaignId, enrollmentIds: ids(enrollments), messageIds: ids(messages) },
    course,
    invitationIds: [invitation.id],
  };
}

export async function makeWorld(app: FastifyInstance): Promise<World> {
  const operator = await signInAs(app, { role: 'operator' });
  const a = await makeSide(app, operator, 2);
  const b = await makeSide(app, operator, 3);
  return { app, a, b, operator, anonymous: await anonymousClient(app) };
}

type Base = Pick<Side, 'accountId' | 'admin' | 'groups'>;

/** A draft campaign: empty, or with what a launch (or a schedule) needs. */
export async function freshDraft(app: FastifyInstance, side: Base, ready?: 'launch' | 'schedule') {
  const body = {
    name: `Draft ${Date.now()}`,
    ...(ready ? { course_keys: ['phishing'], group_ids: [side.groups[0]], due_date: inDays(14) } : {}),
    ...(ready === 'schedule' ? { start_date: inDays(2) } : {}),
  };
  const res = await adminApi(app, side.admin, 'POST', `/accounts/${side.accountId}/campaigns`, 201, body);
  return res.json().id as number;
}

export async function freshScheduled(app: FastifyInstance, side: Base) {
  const id = await freshDraft(app, side, 'schedule');
  await adminApi(app, side.admin, 'POST', `/accounts/${side.accountId}/campaigns/${id}/schedule`, 200);
  return id;
}

/** Launched: groups[0]'s members enrolled, one invitation queued each. */
export async function freshActive(app: FastifyInstance, side: Base) {
  const id = await freshDraft(app, side, 'launch');
  await adminApi(app, side.admin, 'POST', `/accounts/${side.accountId}/campaigns/${id}/launch`, 200);
  return id;
}

/** A launched campaign's messages, set to a status by hand (the mail worker does not run here). */
export async function freshMessages(app: FastifyInstance, side: Base, status: 'sent' | 'failed') {
  const campaignId = await freshActive(app, side);
  await app.db
    .updateTable('messages')
    .set({ status, ...(status === 'sent' ? { sent_at: Date.now() } : { last_error: '550 no' }) })
    .where('campaign_id', '=', campaignId)
    .execute();
  const base = `/accounts/${side.accountId}/campaigns/${campaignId}`;
  const enrollments = ids(await adminApi(app, side.admin, 'GET', `${base}/enrollments`, 200));
  const messages = await adminApi(
    app,
    side.admin,
    'GET',
    `/accounts/${side.accountId}/messages?campaign_id=${campaignId}`,
    200,
  );
  return { campaignId, enrollmentId: enrollments[0] as number, messageId: ids(messages)[0] as number };
}

export async function freshInvitation(app: FastifyInstance, operator: AdminClient, accountId: number) {
  const email = `invitee.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const res = await adminApi(app, operator, 'POST', `/accounts/${accountId}/invitations`, 201, { email });
  const { id, url } = res.json() as { id: number; url: string };
  return { id, token: url.slice(url.lastIndexOf('/') + 1) };
}

export async function freshCourse(app: FastifyInstance, side: Base) {
  return (await adminApi(app, side.admin, 'POST', `/accounts/${side.accountId}/courses`, 201, COURSE)).json()
    .key as string;
}

export async function freshKeyId(app: FastifyInstance, side: Base) {
  return (await makeKey(app, { accountId: side.accountId })).keyId;
}

export async function freshEmployee(app: FastifyInstance, side: Base) {
  return (await makeEmployee(app, side.accountId)).id;
}

export async function freshGroup(app: FastifyInstance, side: Base) {
  return (await makeGroup(app, side.accountId)).id;
}

/** Another administrator of the account, signed in. */
export function freshAdmin(app: FastifyInstance, side: Base) {
  return signInAs(app, { role: 'account_admin', accountId: side.accountId });
}
