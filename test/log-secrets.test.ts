import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv } from './helpers/app.js';
import { createTestDatabase } from './helpers/database.js';
import { BrowserSession, send } from './helpers/http-client.js';
import { cliAccountKey, runCli, type ServerProcess, startServer } from './helpers/server-process.js';

// A real server process taken through every kind of secret it handles, over HTTP: none may
// reach its output, except the first-run setup link printed for the operator. (The placements
// of an API key a client may get wrong are in test/operations.test.ts, "logs".) Runs on the
// database under test, SQLite or PostgreSQL.

const API = '/api/api_gateway';

const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
});

/** Waits (bounded) for the first line of a server's output that contains `text`. */
async function lineWith(server: ServerProcess, text: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes(text));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no line with ${text}:\n${server.output()}`);
}

const random = (bytes = 12) => randomBytes(bytes).toString('hex');

describe("a server process's log", () => {
  it('holds no secret of any kind: API keys, setup, invitation and learner tokens, sessions, CSRF tokens, passwords', async () => {
    const testDb = await createTestDatabase();
    try {
      const metricsToken = random(24);
      // Every level, so that nothing logged below `info` escapes the check.
      const env = testEnv(testDb.url, { LOG_LEVEL: 'trace', METRICS_TOKEN: metricsToken });
      const running = await startServer(env);
      servers.push(running);
      const base = running.baseUrl;
      const secrets: [string, string][] = [];
      const secret = (what: string, value: string) => {
        secrets.push([what, value]);
        return value;
      };
      let requests = 0;
      const call = (method: string, path: string, options: Parameters<typeof send>[3] = {}) => {
        requests++;
        return send(base, method, path, options);
      };
      const browser = () => new BrowserSession(base, { onSecret: secret, onSend: () => requests++ });

      // The one line meant to show a credential: the first-run setup link, for the operator.
      const setupLine = await lineWith(running, '"setup_url"');
      const setupUrl: string = JSON.parse(setupLine).setup_url;
      const setupToken = setupUrl.split('/').pop() as string;
      expect(setupUrl).toBe(`${base}/admin/setup/${setupToken}`);
      secret('setup token', setupToken);

      // API keys: in the header, the query, the path, a Bearer header; an unknown one.
      const { accountId, key } = await cliAccountKey(env, '--grant', 'employees:rw', '--grant', 'groups:rw');
      const unknownKey = `vgl_${random(20)}`;
      // A key's first 12 characters (`vgl_` and 8 more) are its public prefix, shown in lists.
      secret('API key', key.slice(12));
      secret('unknown API key', unknownKey.slice(12));
      const employees = `${API}/customer/employees/`;
      expect((await call('GET', employees, { headers: { apikey: key } })).status).toBe(200);
      expect((await call('GET', employees, { headers: { apikey: unknownKey } })).status).toBe(401);
      expect((await call('GET', employees, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
        401,
      );
      expect((await call('GET', `${employees}?apiKey=${key}`)).status).toBe(401);
      expect((await call('GET', `${employees}?page=1&key=${key}`)).status).toBe(401);
      expect((await call('GET', `${employees}${key}/`, { headers: { apikey: key } })).status).toBe(404);
      const maya = await call('POST', employees, {
        headers: { apikey: key },
        body: { first_name: 'Maya', last_name: 'Okafor', email: 'maya@acme.example' },
      });
      expect(maya.status).toBe(201);

      // The setup link: its page, the admin API behind it, a weak then a good password.
      const operator = browser();
      expect((await operator.send('GET', '/admin/api/session')).status).toBe(200);
      for (const path of [
        `/admin/setup/${setupToken}`,
        `/admin/setup/${setupToken}?from=terminal`,
        `/admin//setup/${setupToken}/`,
        `/admin/setup/x/../${setupToken}`,
        `/admin/api/invitations/${setupToken}/nothing-here`,
      ]) {
        await operator.send('GET', path);
      }
      expect((await operator.send('GET', `/admin/api/invitations/${setupToken}`)).status).toBe(200);
      const accept = `/admin/api/invitations/${setupToken}/accept`;
      await operator.send('GET', accept);
      const weak = secret('weak password', `w${random(4)}`);
      expect(
        (await operator.send('POST', accept, { body: { email: 'ops@acme.example', password: weak } })).status,
      ).toBe(400);
      const password = secret('operator password', `op-${random()}`);
      const made = await operator.send('POST', accept, { body: { email: 'ops@acme.example', password } });
      expect(made.status).toBe(200);

      // Signing in: a wrong password, then the right one.
      const admin = browser();
      await admin.send('GET', '/admin/api/session');
      const wrong = secret('wrong password', `${password}-typo`);
      expect(
        (
          await admin.send('POST', '/admin/api/session', {
            body: { email: 'ops@acme.example', password: wrong },
          })
        ).status,
      ).toBe(401);
      expect(
        (await admin.send('POST', '/admin/api/session', { body: { email: 'ops@acme.example', password } }))
          .status,
      ).toBe(200);

      // An invitation asked for with a forged Host: the link names the listening address.
      const invited = await admin.send('POST', `/admin/api/accounts/${accountId}/invitations`, {
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
        body: { email: 'peter@acme.example' },
      });
      expect(invited.status).toBe(201);
      const inviteUrl: string = invited.json().url;
      expect(inviteUrl).toMatch(new RegExp(`^${base}/admin/invite/[\\w-]{43}$`));
      const inviteToken = secret('invitation token', inviteUrl.split('/').pop() as string);
      const invitee = browser();
      await invitee.send('GET', '/admin/api/session');
      await invitee.send('GET', `/admin/invite/${inviteToken}`);
      expect((await invitee.send('GET', `/admin/api/invitations/${inviteToken}`)).status).toBe(200);
      const inviteePassword = secret('invitee password', `inv-${random()}`);
      expect(
        (
          await invitee.send('POST', `/admin/api/invitations/${inviteToken}/accept`, {
            body: { password: inviteePassword },
          })
        ).status,
      ).toBe(200);

      // A learner link, from the mail the server's worker put in the outbox.
      const group = await runCli(
        ['group', 'create', '--account', String(accountId), '--name', 'All', '--json'],
        env,
      );
      const groupId = JSON.parse(group.stdout).id;
      const members = await call('PUT', `${API}/customer/groups/${groupId}/`, {
        headers: { apikey: key },
        body: { employee_ids: [maya.json().id] },
      });
      expect(members.status).toBe(200);
      const due = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const campaign = await runCli(
        [
          'campaign',
          'create',
          '--account',
          String(accountId),
          '--name',
          'Phishing',
          '--group',
          String(groupId),
        ].concat(['--course', 'phishing', '--due-date', due, '--json']),
        env,
      );
      const campaignId = String(JSON.parse(campaign.stdout).id);
      const launched = await runCli(
        ['campaign', 'launch', '--account', String(accountId), '--id', campaignId],
        env,
      );
      expect(launched.code, launched.stderr).toBe(0);
      let body = '';
      for (let i = 0; i < 100 && !body; i++) {
        const list = (await admin.send('GET', `/admin/api/accounts/${accountId}/messages`)).json();
        const sent = list.results.find((m: { status: string }) => m.status === 'sent');
        if (sent)
          body = (await admin.send('GET', `/admin/api/accounts/${accountId}/messages/${sent.id}`)).json()
            .body_text;
        else await new Promise((r) => setTimeout(r, 100));
      }
      const link = /https?:\/\/\S+\/learn\/[^\s"<>]+/.exec(body)?.[0] ?? '';
      expect(link.startsWith(`${base}/learn/`), body).toBe(true);
      const learnerToken = secret('learner token', link.slice(`${base}/learn/`.length));
      secret('learner token signature', learnerToken.split('.').pop() as string);
      const learn = `/learn/${learnerToken}`;
      expect((await call('GET', learn)).status).toBe(200);
      await call('GET', `${learn}/courses/phishing/lessons/1?utm_source=mail`);
      await call('POST', `${learn}/courses/phishing/lessons/1`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      await call('GET', `${learn}/nothing-here`);
      await call('DELETE', learn);
      await call('GET', `/le%61rn/${learnerToken}/done`);
      await call('GET', `/admin/sign-in?next=${encodeURIComponent(learn)}`);

      // The metrics token (`/metrics`, like the health checks, logs only warnings: no request line).
      secret('metrics token', metricsToken);
      expect(
        (await send(base, 'GET', '/metrics', { headers: { authorization: `Bearer ${metricsToken}` } }))
          .status,
      ).toBe(200);
      expect((await send(base, 'GET', `/metrics?token=${metricsToken}`)).status).toBe(401);

      // A password change and a sign-out.
      const changed = secret('new password', `new-${random()}`);
      const change = await admin.send('POST', '/admin/api/session/password', {
        body: { current_password: password, new_password: changed },
      });
      expect(change.status).toBe(204);
      expect((await admin.send('DELETE', '/admin/api/session')).status).toBe(204);

      const closed = once(running.child, 'close');
      running.child.kill('SIGTERM');
      expect((await closed)[0]).toBe(0);
      const lines = running
        .output()
        .split('\n')
        .filter((line) => line.trim() !== '');
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();

      for (const line of lines) {
        for (const [what, value] of secrets) {
          // The setup link printed at start is for the operator's console, by design.
          if (line === setupLine && value === setupToken) continue;
          expect(line.includes(value), `${what} in a log line: ${line}`).toBe(false);
        }
      }
      expect(lines.filter((line) => line.includes(setupToken))).toEqual([setupLine]);

      // The requests were logged, each with its token replaced.
      const urls = lines.map((line) => JSON.parse(line)).filter((e) => e.msg === 'request completed');
      expect(urls.length).toBeGreaterThanOrEqual(requests);
      const logged = urls.map((e) => e.url as string);
      for (const redacted of [
        '/admin/setup/[redacted]',
        '/admin/invite/[redacted]',
        '/admin/api/invitations/[redacted]/accept',
        '/learn/[redacted]/courses/phishing/lessons/1?utm_source=mail',
        `${employees}?apiKey=[redacted]`,
      ]) {
        expect(logged).toContain(redacted);
      }
      expect(
        secrets.filter(([what]) => what.startsWith('cookie vigil_session')).length,
      ).toBeGreaterThanOrEqual(3);
      expect(secrets.filter(([what]) => what === 'CSRF token').length).toBeGreaterThanOrEqual(6);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
      await testDb.drop();
    }
  }, 120_000);
});
