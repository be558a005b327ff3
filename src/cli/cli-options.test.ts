import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, signIn } from '../../test/helpers/admin.js';
import { buildTestApp } from '../../test/helpers/app.js';
import { runVigil } from '../../test/helpers/cli.js';
import { createTestDatabase, dialectUnderTest } from '../../test/helpers/database.js';
import { runCli } from '../../test/helpers/server-process.js';
import { describeDatabase, openDatabase } from '../core/db/database.js';
import { hasBeenMigrated } from '../core/db/migrate.js';

// The command's own behaviour: which database it works on (and never making one by mistake),
// passwords on standard input, the version, argument errors with --json, and setup links.

let app: FastifyInstance;
let databaseUrl: string;
const folders: string[] = [];

beforeAll(async () => {
  ({ app, databaseUrl } = await buildTestApp());
});

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
  folders.push(folder);
  return folder;
}

/** Runs `vigil …` in-process with this environment (the file's database unless told) and stdin. */
const vigil = (args: string[], { env = {}, stdin }: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) =>
  runVigil(args, { DATABASE_URL: databaseUrl, ...env }, stdin);

const email = () => `op-${Math.random().toString(36).slice(2, 10)}@example.com`;

describe('the database a command works on', () => {
  it('is named on stderr, or as "database" in the JSON output', async () => {
    const shown = describeDatabase(databaseUrl);
    expect(shown).not.toMatch(/:[^:@/]+@/); // never a password
    const human = await vigil(['account', 'list']);
    expect(human.code).toBe(0);
    expect(human.stderr).toBe(`database: ${shown}\n`);
    const json = await vigil(['account', 'list', '--json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({
      count: expect.any(Number),
      results: expect.any(Array),
      database: shown,
    });
    if (dialectUnderTest === 'sqlite') expect(shown).toBe(`sqlite:${resolve(databaseUrl.slice(7))}`);
  });

  it('is never made by a command that reads, or needs what must already exist', async () => {
    const fresh = await createTestDatabase();
    try {
      const env = { DATABASE_URL: fresh.url };
      for (const args of [
        ['account', 'list'],
        ['key', 'list', '--account', '1'],
        ['key', 'revoke', '--id', '1'],
        ['group', 'create', '--account', '1', '--name', 'G'],
        ['campaign', 'launch', '--account', '1', '--id', '1'],
        ['admin', 'setup-link'],
        ['admin', 'create', '--email', email(), '--password', ADMIN_PASSWORD, '--account', '1'],
      ]) {
        const res = await vigil(args, { env });
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr.trimEnd().split('\n'), res.stderr).toHaveLength(1);
        expect(res.stderr).toMatch(
          dialectUnderTest === 'sqlite'
            ? /^vigil: no database at \/.*vigil\.db \(DATABASE_URL=sqlite:\/.*\); run this where the server runs/
            : /^vigil: the database postgres:\/\/.* holds no Vigil data \(it was never migrated\)/,
        );
        const json = await vigil([...args, '--json'], { env });
        expect(json.code).toBe(1);
        expect(json.stdout).toBe('');
        expect(JSON.parse(json.stderr)).toEqual({
          error: expect.stringMatching(/no database at|holds no Vigil data/),
          database: describeDatabase(fresh.url),
        });
      }
      if (dialectUnderTest === 'sqlite') {
        expect(existsSync(fresh.url.slice('sqlite:'.length))).toBe(false);
      } else {
        const opened = openDatabase(fresh.url);
        expect(await hasBeenMigrated(opened.db)).toBe(false);
        await opened.close();
      }

      // `vigil migrate` makes it, says so, and then the others work on it.
      const made = await vigil(['migrate'], { env });
      expect(made.code).toBe(0);
      expect(made.stderr).toBe(`database: ${describeDatabase(fresh.url)} (new: created now)\n`);
      const listed = await vigil(['account', 'list'], { env });
      expect(listed).toEqual({
        code: 0,
        stdout: 'no accounts yet\n',
        stderr: `database: ${describeDatabase(fresh.url)}\n`,
      });
    } finally {
      await fresh.drop();
    }
  });

  it('run from another folder without DATABASE_URL, refuses and creates nothing there', async () => {
    const folder = newFolder();
    const res = await runCli(['account', 'list'], { DATABASE_URL: '' }, { cwd: folder });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      `vigil: no database at ${join(folder, 'data', 'vigil.db')} (DATABASE_URL is unset: the default sqlite:./data/vigil.db, relative to this folder); run this where the server runs or set DATABASE_URL to its database (vigil migrate creates a new one)\n`,
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  it('is created by account create, which says so', async () => {
    const folder = newFolder();
    const url = `sqlite:${join(folder, 'vigil.db')}`;
    const res = await vigil(['account', 'create', '--name', 'First'], { env: { DATABASE_URL: url } });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`database: ${describeDatabase(url)} (new: created now)\n`);
    const again = await vigil(['account', 'list'], { env: { DATABASE_URL: url } });
    expect(again.stdout).toMatch(/\tFirst\npage 1 of 1 \(1 account\)\n$/);
  });
});

describe('--password-stdin', () => {
  it('creates an administrator with the password read from standard input', async () => {
    const address = email();
    const res = await vigil(
      ['admin', 'create', '--email', address, '--password-stdin', '--operator', '--json'],
      {
        stdin: `${ADMIN_PASSWORD}\n`,
      },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ email: address, role: 'operator' });
    expect(res.stdout).not.toContain(ADMIN_PASSWORD);
    expect((await signIn(app, address)).user.email).toBe(address);
  });

  it('works in a real process, the password piped in', async () => {
    const address = email();
    const res = await runCli(
      ['admin', 'create', '--email', address, '--password-stdin', '--operator'],
      { DATABASE_URL: databaseUrl },
      { input: `${ADMIN_PASSWORD}\r\n` },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^created operator \d+ </);
    expect((await signIn(app, address)).user.email).toBe(address);
  });

  it('refuses both, neither, an empty or a multi-line password', async () => {
    const base = ['admin', 'create', '--email', email(), '--operator'];
    for (const [args, stdin, message] of [
      [
        [...base, '--password', ADMIN_PASSWORD, '--password-stdin'],
        ADMIN_PASSWORD,
        /exactly one of --password or --password-stdin/,
      ],
      [base, undefined, /exactly one of --password or --password-stdin/],
      [[...base, '--password-stdin'], '', /standard input held no password/],
      [[...base, '--password-stdin'], '\n', /standard input held no password/],
      [[...base, '--password-stdin'], `${ADMIN_PASSWORD}\nmore\n`, /as one line/],
    ] as const) {
      const res = await vigil([...args], { stdin });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
  });

  it('is in the help of admin create', async () => {
    const res = await vigil(['admin', 'create', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/--password-stdin\s+read the password from standard input/);
  });
});

describe('vigil --version and --help', () => {
  const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

  it('prints the version of package.json', async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await vigil(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await vigil(['-V'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await vigil(['--version', '--json'])).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ version })}\n`,
      stderr: '',
    });
    const spawned = await runCli(['--version'], {});
    expect(spawned).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('explains the database, --json and the exit codes', async () => {
    const res = await vigil(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/-V, --version\s+print the version/);
    expect(res.stdout).toMatch(/DATABASE_URL/);
    expect(res.stdout).toMatch(/refuse one that does not exist/);
    expect(res.stdout).toMatch(/Exit codes/);
  });
});

describe('argument errors with --json', () => {
  it.each([
    [['account', 'create', '--json'], "required option '--name <name>' not specified"],
    [['frobnicate', '--json'], "unknown command 'frobnicate'"],
    [['account', 'list', '--bogus', '--json'], "unknown option '--bogus'"],
    [
      ['group', 'create', '--account', '1', '--name', 'G', 'extra', '--json'],
      "too many arguments for 'create'",
    ],
  ])('`vigil %s` prints one JSON error on stderr and exits 2', async (args, message) => {
    const res = await vigil([...args]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.endsWith('\n')).toBe(true);
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(res.stderr)).toEqual({ error: expect.stringContaining(message) });
  });

  it('are text without --json', async () => {
    const res = await vigil(['account', 'create']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: required option '--name <name>' not specified\n/);
  });
});

describe('vigil admin setup-link', () => {
  const linkOf = async (env: NodeJS.ProcessEnv) => {
    const res = await vigil(['admin', 'setup-link', '--json'], { env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return JSON.parse(res.stdout).url as string;
  };
  const TOKEN = '[\\w-]{43}';

  it('builds the link as the server does: PUBLIC_URL first', async () => {
    expect(await linkOf({ PUBLIC_URL: 'https://training.example.com/', PORT: '9000' })).toMatch(
      new RegExp(`^https://training\\.example\\.com/admin/setup/${TOKEN}$`),
    );
    expect(await linkOf({ PUBLIC_URL: 'https://example.com/vigil' })).toMatch(
      new RegExp(`^https://example\\.com/vigil/admin/setup/${TOKEN}$`),
    );
  });

  it('…else the configured HOST and PORT', async () => {
    expect(await linkOf({ PORT: '9123' })).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:9123/admin/setup/${TOKEN}$`),
    );
    expect(await linkOf({ HOST: '10.1.2.3', PORT: '8443' })).toMatch(
      new RegExp(`^http://10\\.1\\.2\\.3:8443/admin/setup/${TOKEN}$`),
    );
    expect(await linkOf({ HOST: '0.0.0.0' })).toMatch(
      new RegExp(`^http://localhost:8080/admin/setup/${TOKEN}$`),
    );
  });

  it('takes --base-url over both, and refuses one that is not an http(s) URL', async () => {
    const res = await vigil(['admin', 'setup-link', '--base-url', 'http://vigil.lan:8080', '--json'], {
      env: { PUBLIC_URL: 'https://ignored.example.com' },
    });
    expect(JSON.parse(res.stdout).url).toMatch(new RegExp(`^http://vigil\\.lan:8080/admin/setup/${TOKEN}$`));
    const bad = await vigil(['admin', 'setup-link', '--base-url', 'vigil.lan']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--base-url must be an absolute http\(s\) URL/);
  });

  it('makes a link the server accepts', async () => {
    const url = await linkOf({ PUBLIC_URL: 'https://training.example.com' });
    const res = await app.inject({ method: 'GET', url: `/admin/api/invitations/${url.split('/').pop()}` });
    expect(res.json()).toMatchObject({ kind: 'setup', role: 'operator' });
  });
});
