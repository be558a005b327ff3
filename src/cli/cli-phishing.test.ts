import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/app.js';
import { vigilOn } from '../../test/helpers/cli.js';
import { makeEmployee } from '../../test/helpers/factories.js';

/** `vigil phishing create|launch|list` on the database under test (bin/vigil.js, the built CLI). */
let app: FastifyInstance;
let databaseUrl: string;

beforeAll(async () => {
  ({ app, databaseUrl } = await buildTestApp());
});

const { vigil, vigilJson, expectFailure, newAccount } = vigilOn(() => databaseUrl);
const DAY = 86_400_000;

describe('vigil phishing', () => {
  it('creates, launches and lists a campaign', async () => {
    const account = await newAccount();
    const id = String(account.id);
    const person = await makeEmployee(app, account.id, { first_name: 'Ann' });
    const group = await vigilJson(['group', 'create', '--account', id, '--name', 'Everyone']);
    await app.db.insertInto('group_members').values({ group_id: group.id, employee_id: person.id }).execute();
    const created = await vigilJson([
      'phishing',
      'create',
      '--account',
      id,
      '--name',
      'Q4 test',
      '--group',
      String(group.id),
      '--template',
      'builtin:invoice-final-notice',
      '--template',
      'builtin:mfa-deny-sign-in',
      '--window-start',
      new Date(Date.now() + DAY).toISOString(),
      '--window-end',
      new Date(Date.now() + 10 * DAY).toISOString(),
      '--weekdays',
      'mon,tue,wed,thu,fri',
      '--hours',
      '9-17',
      '--time-zone',
      'Europe/Berlin',
    ]);
    expect(created).toMatchObject({
      name: 'Q4 test',
      status: 'draft',
      group_ids: [group.id],
      template_keys: ['builtin:invoice-final-notice', 'builtin:mfa-deny-sign-in'],
      hour_start: 9,
      hour_end: 17,
      time_zone: 'Europe/Berlin',
    });
    const launched = await vigilJson(['phishing', 'launch', '--account', id, '--id', String(created.id)]);
    expect(launched).toMatchObject({ status: 'running', figures: { recipients: 1 } });
    const human = await vigil(['phishing', 'list', '--account', id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`${created.id}\trunning`);
    expect(await vigilJson(['phishing', 'list', '--account', id, '--status', 'draft'])).toMatchObject({
      count: 0,
      results: [],
    });
  });

  it('refuses bad input with the flag named, and another account’s campaign', async () => {
    const account = await newAccount();
    const res = await expectFailure(
      ['phishing', 'create', '--account', String(account.id), '--name', 'X', '--time-zone', 'Nowhere/Else'],
      /\n {2}--time-zone: must be an IANA time zone/,
    );
    expect(res.stderr).not.toMatch(/time_zone/);
    const other = await newAccount();
    const created = await vigilJson([
      'phishing',
      'create',
      '--account',
      String(other.id),
      '--name',
      'Theirs',
    ]);
    await expectFailure(
      ['phishing', 'launch', '--account', String(account.id), '--id', String(created.id)],
      /Phishing campaign not found/,
    );
  });
});
