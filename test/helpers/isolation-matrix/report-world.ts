import { randomBytes } from 'node:crypto';
import { makeEmployee } from '../factories.js';
import { adminApi, type Side, type World } from './world.js';

/**
 * Real reports and report rules for the triage rows: filed the way a report button files them
 * (POST /customer/reports/ with the side's key, which holds reports:write), each message unlike
 * any other (its own sender, subject, text and link), so that none joins another's report.
 */

const REPORTS = '/api/api_gateway/customer/reports/';
export const unique = () => randomBytes(5).toString('hex');

/** A reported phish that no other message resembles. */
export function phishMessage(tag = unique()): string {
  return [
    `From: IT Desk <helpdesk@${tag}.evil.example>`,
    'To: staff@example.com',
    `Subject: Mailbox ${tag} is full`,
    `Message-ID: <${tag}@evil.example>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Click <a href="https://login.${tag}.evil.example/reset">here</a> to keep mailbox ${tag}.</p>`,
    '',
  ].join('\r\n');
}

export const emlOf = (message: string) => Buffer.from(message).toString('base64');

/**
 * People of the side who report, made for these rows (other rows delete or change the side's own
 * employees); taken in turn, since each may report 30 messages an hour.
 */
const reporters = new WeakMap<Side, Promise<string[]>>();
let turn = 0;

export async function reporterOf(w: World, side: Side): Promise<string> {
  let made = reporters.get(side);
  if (!made) {
    made = Promise.all([0, 1, 2].map(async () => (await makeEmployee(w.app, side.accountId)).email));
    reporters.set(side, made);
  }
  const list = await made;
  return list[turn++ % list.length] as string;
}

/** Every report made here, by side (the list rows read B's synchronously, after its object was made). */
const reportsMade = new WeakMap<Side, number[]>();
export const knownReports = (side: Side): number[] => reportsMade.get(side) ?? [];

/** A new real report of the side, filed through the Customer API. */
export async function freshReport(w: World, side: Side): Promise<number> {
  const res = await w.app.inject({
    method: 'POST',
    url: REPORTS,
    headers: { apikey: side.key },
    payload: { reporter: await reporterOf(w, side), eml: emlOf(phishMessage()) },
  });
  if (res.statusCode !== 202 || res.json().outcome !== 'real')
    throw new Error(`${res.statusCode} ${res.body}`);
  const id = res.json().report_id as number;
  reportsMade.set(side, [...knownReports(side), id]);
  return id;
}

/** The side's standing report (read, never changed), made the first time a row asks for it. */
const standing = new WeakMap<Side, Promise<number>>();
export function reportOf(w: World, side: Side): Promise<number> {
  let report = standing.get(side);
  if (!report) {
    report = freshReport(w, side);
    standing.set(side, report);
  }
  return report;
}

const rulesMade = new WeakMap<Side, number[]>();
export const knownRules = (side: Side): number[] => rulesMade.get(side) ?? [];

/** A new rule of the side (a sender domain no report here comes from). */
export async function freshRule(w: World, side: Side): Promise<number> {
  const res = await adminApi(w.app, side.admin, 'POST', `/accounts/${side.accountId}/report-rules`, 201, {
    kind: 'sender_domain',
    value: `${unique()}.rules.example`,
    verdict: 'spam',
    note: 'A newsletter.',
  });
  const id = res.json().id as number;
  rulesMade.set(side, [...knownRules(side), id]);
  return id;
}

/** The side's standing rule, made the first time a row asks for it. */
const standingRule = new WeakMap<Side, Promise<number>>();
export function ruleOf(w: World, side: Side): Promise<number> {
  let rule = standingRule.get(side);
  if (!rule) {
    rule = freshRule(w, side);
    standingRule.set(side, rule);
  }
  return rule;
}
