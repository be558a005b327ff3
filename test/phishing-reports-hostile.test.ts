import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/core/errors.js';
import { errorBody } from '../src/core/http/errors.js';
import { phishBaseUrl } from '../src/core/http/links.js';
import { ReportedMessageError } from '../src/modules/phishing/reports/reports.model.js';
import { reportSimulation } from '../src/modules/phishing/reports/reports.service.js';
import { createStepMachine } from '../src/modules/phishing/tracking/tracking.steps.batch.commands.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { client, makeKey } from './helpers/factories.js';
import { figuresOf, seedPhishingCampaign } from './helpers/phishing.js';

/**
 * Reported mail built to stall or flood the server (issue 19): anyone can mail an employee such
 * a message and wait for the Report button. Each is answered, the server answers everyone else
 * meanwhile, and a report costs one look-up whatever it holds. Time bounds are loose (a second
 * where the server answers in milliseconds, and before these changes stalled for seconds to hours).
 */

const REPORTS = '/api/api_gateway/customer/campaigns/phishing/reports/';
const MiB = 1024 * 1024;

let t: TestApp;
beforeAll(async () => {
  // These messages are about what reading costs (linear, one look-up), not about the deadline,
  // which has its own test below: the default 5 s would fail them on a machine busy enough to
  // starve the reading threads (they run at a lower priority), as CI's can be.
  t = await buildTestApp({ REPORT_READ_TIMEOUT_MS: '60000' });
});

function postMessage(app: TestApp['app'], key: string, raw: Buffer | string) {
  return app.inject({
    method: 'POST',
    url: REPORTS,
    headers: { apikey: key, 'content-type': 'message/rfc822' },
    payload: raw,
  });
}

/** A simulation the key's account sent, for the report to credit. */
async function simulation(app: TestApp['app']) {
  const { key, accountId } = await makeKey(app);
  const c = await seedPhishingCampaign(app, accountId, { people: 1 });
  return { key, accountId, campaignId: c.campaignId, person: c.people[0]! };
}

/** The simulation, its header kept, forwarded with a note; `line` in its text and, unless told, HTML. */
function reportedWith(token: string, line: string, html = true) {
  const head = `From: IT <it@phish.example.com>\r\nSubject: FW: password\r\nX-Vigil-Simulation: ${token}\r\n`;
  const text = `Please look at this:\r\n\r\n${line}\r\n`;
  if (!html) return `${head}Content-Type: text/plain\r\n\r\n${text}`;
  return (
    `${head}MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=alt\r\n\r\n` +
    `--alt\r\nContent-Type: text/plain\r\n\r\n${text}` +
    `--alt\r\nContent-Type: text/html\r\n\r\n<p>Please look at this:</p><p>${line}</p>\r\n--alt--\r\n`
  );
}

/**
 * Waits for `request` while asking GET /healthz every 50 ms: the longest time between two health
 * answers, i.e. how long the event loop stalled while the report was being read.
 */
async function whileHealthPolled(request: Promise<LightMyRequestResponse>) {
  let answered = false;
  const response = request.finally(() => {
    answered = true;
  });
  let last = performance.now();
  let worstGapMs = 0;
  while (!answered) {
    await sleep(50);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    worstGapMs = Math.max(worstGapMs, performance.now() - last);
    last = performance.now();
  }
  return { res: await response, worstGapMs };
}

describe('a reported message built to stall the server', () => {
  it.each([
    ['a link followed by 30,000 dots', `http://a/${'.'.repeat(30_000)}x`, true],
    ['a link followed by 80,000 dots', `http://a/${'.'.repeat(80_000)}x`, true],
    ['a 9 MiB line of dots (text only)', `http://a/${'.'.repeat(9 * MiB)}x`, false],
  ])('%s: the report is credited, and the server answers others meanwhile', async (_name, line, html) => {
    const { key, person } = await simulation(t.app);
    const { res, worstGapMs } = await whileHealthPolled(
      postMessage(t.app, key, reportedWith(person.token, line, html)),
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ employee_id: person.employee.id, reported_at: expect.any(String) });
    expect(worstGapMs).toBeLessThan(1_000);
  });
});

describe('a reported message of 180,000 distinct tokens, in headers and in links', () => {
  const newToken = () => randomBytes(24).toString('base64url');
  const headers = (tokens: string[]) => tokens.map((token) => `X-Vigil-Simulation: ${token}\r\n`).join('');

  /** Ten attached messages of 9,000 header tokens each, and 90,000 links below the report's note. */
  function flood(real?: { token: string; position: number }) {
    const inHeaders = Array.from({ length: 90_000 }, newToken);
    if (real) inHeaders[real.position] = real.token;
    const links = Array.from({ length: 90_000 }, () => `${phishBaseUrl(t.app)}/v/${newToken()}`);
    let raw = `From: jane@example.com\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n`;
    raw += `--b\r\nContent-Type: text/plain\r\n\r\nReported.\r\n${links.join('\n')}\r\n`;
    for (let i = 0; i < 10; i++) {
      const own = inHeaders.slice(i * 9_000, (i + 1) * 9_000);
      raw += `--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: it@phish.example.com\r\n${headers(own)}\r\nHi\r\n`;
    }
    return Buffer.from(`${raw}--b--\r\n`);
  }

  /** The report's answer and how many look-ups of recipients by token it made. */
  async function countingLookUps(report: () => Promise<LightMyRequestResponse>) {
    const executor = t.app.db.getExecutor();
    const spy = vi.spyOn(executor, 'executeQuery');
    try {
      const res = await report();
      const lookUps = spy.mock.calls.filter(([query]) => /"r"\."token" (=|in)/.test(query.sql)).length;
      return { res, lookUps };
    } finally {
      spy.mockRestore();
    }
  }

  it('credits the first simulation among the first 50 tokens, with one look-up', async () => {
    const { key, campaignId, person } = await simulation(t.app);
    const raw = flood({ token: person.token, position: 39 });
    expect(raw.length).toBeLessThan(10 * MiB);
    const { res, lookUps } = await countingLookUps(() => postMessage(t.app, key, raw));
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().employee_id).toBe(person.employee.id);
    expect(lookUps).toBe(1);
    expect((await figuresOf(t.app, campaignId)).reported).toBe(1);
  });

  it('answers 404 with one look-up when none of the first 50 is a simulation', async () => {
    const { key, campaignId, person } = await simulation(t.app);
    const { res, lookUps } = await countingLookUps(() =>
      postMessage(t.app, key, flood({ token: person.token, position: 50 })),
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject(coded('simulation_not_found'));
    expect(lookUps).toBe(1);
    expect((await figuresOf(t.app, campaignId)).reported).toBe(0);
  });
});

describe('a reported message that takes longer to read than allowed', () => {
  it('is refused as too slow to read; the next reports are answered', async () => {
    const slow = await buildTestApp({ REPORT_READ_TIMEOUT_MS: '10' });
    const { key, person } = await simulation(slow.app);
    // Five MiB of ordinary text: read in a fraction of a second, never in 10 ms.
    const text = Array.from({ length: (5 * MiB) / 78 }, () => 'x'.repeat(76)).join('\r\n');
    const res = await postMessage(slow.app, key, reportedWith(person.token, text, false));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'The reported message took too long to read',
      status: 400,
      ...coded('reported_message_unreadable'),
    });
    const next = await client(slow.app, key).post('/customer/campaigns/phishing/reports/', {
      token: person.token,
    });
    expect(next.statusCode).toBe(202);
    expect((await slow.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('a report while every reader is busy', () => {
  it('is answered 503 reported_messages_busy with Retry-After, nothing recorded', async () => {
    const { accountId, campaignId, person } = await simulation(t.app);
    const busy = { read: () => Promise.reject(new ReportedMessageError('busy')), close: async () => {} };
    const intake = { db: t.app.db, machine: createStepMachine(), reader: busy, phishUrls: () => [] };
    const err = await reportSimulation(intake, {
      accountId,
      report: { kind: 'message', raw: Buffer.from(reportedWith(person.token, 'Hi')) },
      clientAddress: '203.0.113.7',
      headers: {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).headers).toEqual({ 'retry-after': '5' });
    expect(errorBody(err as AppError, 'r1')).toEqual({
      error: 'Too many reported messages are being read; retry in a few seconds',
      status: 503,
      code: 'reported_messages_busy',
      request_id: 'r1',
    });
    expect((await figuresOf(t.app, campaignId)).reported).toBe(0);
  });
});
