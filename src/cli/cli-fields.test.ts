import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/app.js';
import { vigilOn } from '../../test/helpers/cli.js';
import { buildAdminOpenApiDocument } from '../admin/openapi-document.js';
import { flagsOfFields } from './body-options.js';
import { vigilProgram } from './main.js';
import type { CliContext } from './output.js';

// `vigil` names the fields of a refused request by the flags that set them (`--window-end`),
// never by the API's names (`window_end_at`): in the field lines and in the messages, for every
// command that sends a body. The names come from the commands' option definitions; this file
// checks that every field a command sends has one, and what people read when a value is refused.

let databaseUrl: string;
beforeAll(async () => {
  ({ databaseUrl } = await buildTestApp());
});
const { vigil, vigilJson, newAccount } = vigilOn(() => databaseUrl);

/** The commands, without running any: their definitions are all this reads. */
const program = vigilProgram({} as CliContext, false);
const commandLine = (c: Command): string => (c.parent ? `${commandLine(c.parent)} ${c.name()}` : c.name());
const allCommands = (c: Command): Command[] => [c, ...c.commands.flatMap(allCommands)];
const bodyCommands = allCommands(program).filter((c) => flagsOfFields(c).size > 0);

/**
 * What each command sends: the admin API route that calls the same service (its body schema
 * lists the fields), and the fields of that body the command does not offer. `admin create`
 * has no such route (the web interface makes administrators by invitation): its service's fields.
 */
const SENDS: Record<string, { operation?: string; fields?: string[]; notOffered?: string[] }> = {
  'vigil account create': { operation: 'POST /accounts' },
  'vigil admin create': { fields: ['email', 'password', 'name'] },
  'vigil key create': { operation: 'POST /accounts/{accountId}/keys' },
  'vigil key set-rate-limit': { operation: 'PATCH /accounts/{accountId}/keys/{id}' },
  'vigil group create': { operation: 'POST /accounts/{accountId}/groups' },
  'vigil campaign create': {
    operation: 'POST /accounts/{accountId}/campaigns',
    notOffered: ['reminder_days', 'enroll_new_members'],
  },
  'vigil phishing create': {
    operation: 'POST /accounts/{accountId}/phishing/campaigns',
    notOffered: ['automated_window_seconds'],
  },
};

/** Any word of the API's field names (snake_case) in what the command printed (the database's name aside). */
const apiNames = (text: string) =>
  text.replace(/^database: .*$/m, '').match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g) ?? [];

describe('the flag names of body fields', () => {
  it('are declared by every command that sends a body, and only by those', () => {
    expect(bodyCommands.map(commandLine).sort()).toEqual(Object.keys(SENDS).sort());
  });

  it('cover every field each command can send', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON, read field by field
    const doc: any = await buildAdminOpenApiDocument();
    for (const command of bodyCommands) {
      const line = commandLine(command);
      const sends = SENDS[line];
      let fields = sends?.fields ?? [];
      if (sends?.operation) {
        const [method, path] = sends.operation.split(' ') as [string, string];
        const schema = doc.paths[path][method.toLowerCase()].requestBody.content['application/json'].schema;
        fields = Object.keys(schema.properties);
      }
      expect(fields.length, line).toBeGreaterThan(0);
      const flagged = flagsOfFields(command);
      const offered = fields.filter((f) => !sends?.notOffered?.includes(f));
      expect(
        offered.filter((f) => !flagged.has(f)),
        `${line}: fields without a flag`,
      ).toEqual([]);
      // A flag names a field the body has (a misspelt field would name nothing).
      expect(
        [...flagged.keys()].filter((f) => !fields.includes(f)),
        `${line}: flags of no field`,
      ).toEqual(line === 'vigil key create' ? ['rate_limit'] : []);
    }
  });
});

describe('errors of a refused body', () => {
  it('name the flags of vigil phishing create, in the lines and in the messages', async () => {
    const account = await newAccount();
    const res = await vigil([
      'phishing',
      'create',
      '--account',
      String(account.id),
      '--name',
      ' ',
      '--template',
      'builtin:no-such-template',
      '--window-start',
      '2027-01-10T09:00:00Z',
      '--window-end',
      '2027-01-05T09:00:00Z',
      '--weekdays',
      'mon,someday',
      '--hours',
      '17-9',
      '--time-zone',
      'Mars/Olympus',
      '--landing',
      'somewhere',
      '--remedial-on',
      'never',
      '--grace-hours',
      '-1',
      '--sender-domain',
      'not a host',
    ]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trim().split('\n');
    expect(lines).toContain('vigil: Validation failed');
    for (const flag of [
      '--name',
      '--weekdays',
      '--time-zone',
      '--landing',
      '--remedial-on',
      '--grace-hours',
      '--sender-domain',
    ]) {
      expect(
        lines.some((l) => l.startsWith(`  ${flag}: `)),
        `${flag} in\n${res.stderr}`,
      ).toBe(true);
    }
    // The values quoted as the API takes them are values, not field names.
    expect(apiNames(res.stderr.replace(/teach_on_\w+/g, ''))).toEqual([]);

    // Checks between fields, and the templates, come once each field is well-formed.
    const between = await vigil([
      'phishing',
      'create',
      '--account',
      String(account.id),
      '--name',
      'Q1',
      '--window-start',
      '2027-01-10T09:00:00Z',
      '--window-end',
      '2027-01-05T09:00:00Z',
      '--hours',
      '17-9',
    ]);
    expect(between.stderr).toContain('  --window-end: must be after --window-start');
    expect(between.stderr).toContain('  --hours (to): must be after --hours (from)');
    expect(apiNames(between.stderr)).toEqual([]);
    const template = await vigil([
      'phishing',
      'create',
      '--account',
      String(account.id),
      '--name',
      'Q1',
      '--template',
      'builtin:no-such-template',
    ]);
    expect(template.stderr).toContain('  --template: unknown templates: builtin:no-such-template');
    expect(apiNames(template.stderr)).toEqual([]);
  });

  it('name the flags of the command that set a campaign when launching it finds them missing', async () => {
    const account = await newAccount();
    const id = String(account.id);
    const phishing = await vigilJson(['phishing', 'create', '--account', id, '--name', 'Empty']);
    const res = await vigil(['phishing', 'launch', '--account', id, '--id', String(phishing.id)]);
    expect(res.code).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toContain('  --template (of vigil phishing create): choose at least one template');
    expect(lines).toContain('  --group (of vigil phishing create): choose at least one target group');
    expect(apiNames(res.stderr)).toEqual([]);

    const training = await vigilJson(['campaign', 'create', '--account', id, '--name', 'Empty']);
    const launched = await vigil(['campaign', 'launch', '--account', id, '--id', String(training.id)]);
    expect(launched.code).toBe(1);
    expect(launched.stderr).toContain('  --course (of vigil campaign create): choose at least one course');
    expect(launched.stderr).toContain('  --due-date (of vigil campaign create): is required to launch');
    expect(apiNames(launched.stderr)).toEqual([]);
  });

  it('name the flags of the other commands that send a body', async () => {
    const account = await newAccount();
    const id = String(account.id);
    const cases: [string[], string][] = [
      [['account', 'create', '--name', ' '], '  --name: must not be empty'],
      [['group', 'create', '--account', id, '--name', 'x'.repeat(200)], '  --name: must be at most'],
      [
        ['campaign', 'create', '--account', id, '--name', 'T', '--due-date', 'soon'],
        '  --due-date: must be an ISO 8601 date',
      ],
      [
        [
          'key',
          'create',
          '--account',
          id,
          '--name',
          'K',
          '--grant',
          'groups:r',
          '--expires-at',
          '2001-01-01',
        ],
        '  --expires-at: must be in the future',
      ],
      [
        ['key', 'create', '--account', id, '--name', 'K', '--grant', 'groups:r', '--rate-limit', '999999999'],
        '  --rate-limit: must be an integer from 1 to',
      ],
      [
        ['admin', 'create', '--account', id, '--email', 'not-an-address', '--password', 'short'],
        '  --password / --password-stdin: must be at least 12 characters',
      ],
    ];
    for (const [args, expected] of cases) {
      const res = await vigil(args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr, args.join(' ')).toContain(expected);
      expect(apiNames(res.stderr), args.join(' ')).toEqual([]);
    }
    const admin = await vigil([
      'admin',
      'create',
      '--account',
      id,
      '--email',
      'nobody',
      '--password',
      'short',
    ]);
    expect(admin.stderr).toContain('  --email: must be a valid email address');
  });

  it('keep the API’s field names with --json, for programs', async () => {
    const res = await vigil(['account', 'create', '--name', ' ', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr)).toMatchObject({
      code: 'validation_failed',
      details: { name: ['must not be empty'] },
    });
  });
});
