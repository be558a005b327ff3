import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_VERSION } from '../src/index.js';

/**
 * The package as another project gets it: `npm pack` (which runs its `prepare`, the build), then
 * the tarball installed into a new project offline (the package needs nothing from the
 * registry), imported by Node and type-checked by TypeScript as a consumer's code would be.
 */

const run = promisify(execFile);
const PACKAGE = resolve(import.meta.dirname, '..');
const ROOT = resolve(PACKAGE, '../..');
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: process.env });

let work: string;
let files: string[];
let consumer: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vigil-client-package-'));
  const packed = JSON.parse((await npm(['pack', '--json', '--pack-destination', work], PACKAGE)).stdout);
  files = packed[0].files.map((f: { path: string }) => f.path);
  consumer = join(work, 'consumer');
  await run('mkdir', ['-p', consumer]);
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await npm(['install', '--offline', join(work, packed[0].filename)], consumer);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the @vigil/client package', () => {
  it('ships the built code, its types and the sources, not the tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/generated/customer-api.d.ts',
        'src/index.ts',
      ]),
    );
    expect(files.filter((f) => f.startsWith('test/') || f.endsWith('.tgz'))).toEqual([]);
  });

  it('has the version the client reports in its User-Agent', () => {
    expect(JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).version).toBe(CLIENT_VERSION);
  });

  it('is imported by Node from the installed tarball and works', async () => {
    const script = `
      import { VigilClient, VigilError } from '@vigil/client';
      const client = new VigilClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'vgl_x', maxRetries: 0 });
      try { await client.employees.page(); } catch (err) {
        console.log(JSON.stringify({ isVigilError: err instanceof VigilError, code: err.code }));
      }`;
    writeFileSync(join(consumer, 'smoke.mjs'), script);
    const { stdout } = await run(process.execPath, ['smoke.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({ isVigilError: true, code: 'connection_error' });
  });

  it('type-checks a consumer’s code against the installed declarations', async () => {
    const code = `
      import { VigilClient, isVigilError, type Employee } from '@vigil/client';
      const client = new VigilClient({ baseUrl: 'https://vigil.example.com', apiKey: 'vgl_x' });
      export async function sync(): Promise<string[]> {
        const emails: string[] = [];
        for await (const e of client.employees.list({ page_size: 500 })) emails.push(e.email);
        try {
          const created: Employee = await client.employees.create({ first_name: 'A', last_name: 'B', email: 'a@b.co' });
          await client.groups.addMembers(1, [created.id]);
        } catch (err) {
          if (isVigilError(err, 'invalid_employee_ids')) emails.push(...err.details.invalid_ids.map(String));
          else if (isVigilError(err) && err.code === 'email_taken') emails.push(err.requestId ?? '');
        }
        return emails;
      }
      // @ts-expect-error: no such field on a new employee
      client.employees.create({ first_name: 'A', last_name: 'B' });
    `;
    writeFileSync(join(consumer, 'sync.ts'), code);
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        lib: ['es2022', 'dom'],
        types: [],
      },
      files: ['sync.ts'],
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer }).catch(
      (e) => e,
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });
});
