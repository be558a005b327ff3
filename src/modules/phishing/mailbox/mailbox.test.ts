import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { runVigil } from '../../../../test/helpers/cli.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { HEADER_BYTES_MAX, reporterOf } from './mailbox.headers.model.js';
import { ConnectionsPerClient, clientKey } from './mailbox.limits.model.js';
import { isReportingId, newReportingId, reportingIdOfRecipient } from './mailbox.model.js';
import { accountOfReportingId, regenerateReportingId, reportingIdOf } from './mailbox.service.js';

const DOMAIN = 'reports.example.com';
const ADDRESS = /^report\+[a-z2-7]{10}@reports\.example\.com$/;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ REPORT_DOMAIN: DOMAIN });
});

describe('reporting ids and addresses', () => {
  it('makes ten lower-case base32 characters', () => {
    const ids = Array.from({ length: 200 }, newReportingId);
    for (const id of ids) expect(isReportingId(id), id).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads the id of report+<id>@REPORT_DOMAIN, whatever its case, and nothing else', () => {
    expect(reportingIdOfRecipient('report+abcdefgh23@reports.example.com', DOMAIN)).toBe('abcdefgh23');
    expect(reportingIdOfRecipient('REPORT+ABCDEFGH23@Reports.Example.Com.', DOMAIN)).toBe('abcdefgh23');
    for (const other of [
      'report+abcdefgh23@example.com',
      'report+abcdefgh23@evil.reports.example.com',
      'report+abcdefgh2@reports.example.com',
      'report+abcdefgh01@reports.example.com',
      'report-abcdefgh23@reports.example.com',
      'x.report+abcdefgh23@reports.example.com',
      'report+abcdefgh23',
      `report+${'a'.repeat(400)}@reports.example.com`,
    ]) {
      expect(reportingIdOfRecipient(other, DOMAIN), other).toBeNull();
    }
  });

  it('is made once per account even when asked for at once, and is the same after', async () => {
    const account = await makeAccount(t.app);
    const ids = await Promise.all(Array.from({ length: 8 }, () => reportingIdOf(t.app.db, account.id)));
    expect(new Set(ids).size).toBe(1);
    expect(await reportingIdOf(t.app.db, account.id)).toBe(ids[0]);
    expect(await accountOfReportingId(t.app.db, ids[0] as string)).toBe(account.id);
  });

  it('regenerates: the old id names no account any more', async () => {
    const account = await makeAccount(t.app);
    const old = await reportingIdOf(t.app.db, account.id);
    const renewed = await regenerateReportingId(t.app.db, account.id);
    expect(renewed).not.toBe(old);
    expect(await accountOfReportingId(t.app.db, old)).toBeNull();
    expect(await accountOfReportingId(t.app.db, renewed)).toBe(account.id);
    expect(await accountOfReportingId(t.app.db, 'not an id')).toBeNull();
  });
});

describe('the reporter of a forwarded message', () => {
  const from = (header: string) => reporterOf(Buffer.from(`${header}\r\nSubject: x\r\n\r\nbody\r\n`));

  it('is the first From header’s address, display names, folding and encoded words aside', () => {
    expect(from('From: Ann <ann@acme.example>')).toEqual({ kind: 'found', address: 'ann@acme.example' });
    expect(from('from: "Payroll, Acme" <pay@acme.example>')).toMatchObject({ address: 'pay@acme.example' });
    expect(from('From: =?utf-8?q?Z=C3=B6e?=\r\n <zoe@acme.example>')).toMatchObject({
      address: 'zoe@acme.example',
    });
    expect(from('From: bo@acme.example (Bo)')).toMatchObject({ address: 'bo@acme.example' });
    expect(reporterOf(Buffer.from('From: a@acme.example\nFrom: b@acme.example\n\nbody'))).toMatchObject({
      address: 'a@acme.example',
    });
  });

  it('is found in the header only, never in the body', () => {
    expect(reporterOf(Buffer.from('Subject: x\r\n\r\nFrom: ann@acme.example\r\n'))).toEqual({
      kind: 'no_from',
    });
    expect(from('From: Undisclosed')).toEqual({ kind: 'no_from' });
    expect(from('From: <>')).toEqual({ kind: 'no_from' });
  });

  it('refuses a header block past 64 KiB, and reads a message of headers alone', () => {
    const long = Buffer.from(`From: a@acme.example\r\nX: ${'a'.repeat(HEADER_BYTES_MAX)}\r\n\r\nbody`);
    expect(reporterOf(long)).toEqual({ kind: 'header_too_large' });
    expect(reporterOf(Buffer.from('From: a@acme.example\r\n'))).toMatchObject({ address: 'a@acme.example' });
  });

  it('reads hostile headers in linear time', () => {
    for (const fill of ['<', '"', '(', ',', '\\', 'a:', 'g:a@b;', ' \t']) {
      const value = fill.repeat(Math.floor((HEADER_BYTES_MAX - 100) / fill.length));
      const started = performance.now();
      reporterOf(Buffer.from(`From: ${value}\r\n\r\n`));
      reporterOf(Buffer.from(`From: x\r\n${`${fill}\r\n `.repeat(5000)}\r\n\r\n`));
      expect(performance.now() - started, JSON.stringify(fill)).toBeLessThan(500);
    }
  });
});

describe('connections per client', () => {
  it('counts an IPv4 address, or an IPv6 /64, and IPv4-mapped addresses as IPv4', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:bbbb::9'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    const open = new ConnectionsPerClient(2);
    expect([open.take('a'), open.take('a'), open.take('a'), open.take('b')]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    open.release('a');
    expect(open.take('a')).toBe(true);
    open.release('a');
    open.release('a');
    open.release('b');
    expect(open.clients).toBe(0);
  });
});

describe('the reporting address in the admin API and the vigil command', () => {
  it('shows the account’s address, the same each time, and a new one after regenerating', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const url = `/admin/api/accounts/${account.id}/reporting/address`;
    const first = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().address).toMatch(ADDRESS);
    expect((await t.app.inject({ method: 'GET', url, headers: admin.headers })).json()).toEqual(first.json());

    const { cookie } = admin.headers;
    const withoutCsrf = await t.app.inject({ method: 'POST', url: `${url}/regenerate`, headers: { cookie } });
    expect(withoutCsrf.statusCode).toBe(403);
    const renewed = await t.app.inject({ method: 'POST', url: `${url}/regenerate`, headers: admin.headers });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().address).toMatch(ADDRESS);
    expect(renewed.json().address).not.toBe(first.json().address);
    expect((await t.app.inject({ method: 'GET', url, headers: admin.headers })).json()).toEqual(
      renewed.json(),
    );

    const cli = await runVigil(['account', 'reporting-address', '--account', String(account.id), '--json'], {
      DATABASE_URL: t.databaseUrl,
      REPORT_DOMAIN: DOMAIN,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ address: renewed.json().address });
    const human = await runVigil(['account', 'reporting-address', '--account', String(account.id)], {
      DATABASE_URL: t.databaseUrl,
      REPORT_DOMAIN: DOMAIN,
    });
    expect(human.stdout).toBe(`${renewed.json().address}\n`);
  });

  it('answers null in the admin API, and refuses in the command, without REPORT_DOMAIN', async () => {
    const bare = await buildTestApp();
    const account = await makeAccount(bare.app);
    const admin = await signInAs(bare.app, { role: 'account_admin', accountId: account.id });
    const res = await bare.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${account.id}/reporting/address`,
      headers: admin.headers,
    });
    expect(res.json()).toEqual({ address: null });
    const cli = await runVigil(['account', 'reporting-address', '--account', String(account.id)], {
      DATABASE_URL: bare.databaseUrl,
    });
    expect(cli.code).toBe(2);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toMatch(/REPORT_DOMAIN is not set/);
    const missing = await runVigil(['account', 'reporting-address', '--account', '987654321'], {
      DATABASE_URL: t.databaseUrl,
      REPORT_DOMAIN: DOMAIN,
    });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/Account not found/i);
  });
});
