import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm start`, `npx vigil` and `npm test` build only when something the build reads changed
// (scripts/build-if-changed.mjs). Tried on a copy of the sources with the last build's
// fingerprint beside it, so that changing a file here changes nothing of the checkout.

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);
let copy: string;

/** Whether the script would build the copy now (exit 1) or finds it up to date (exit 0). */
async function buildDue(): Promise<boolean> {
  const script = join(copy, 'scripts', 'build-if-changed.mjs');
  return run(process.execPath, [script, '--check']).then(
    () => false,
    (err: { code?: number }) => {
      if (err.code === 1) return true;
      throw err;
    },
  );
}

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'vigil-build-'));
  for (const path of [
    'src',
    'web',
    'clients/typescript/src',
    'scripts/build-if-changed.mjs',
    'scripts/build-server.mjs',
  ]) {
    cpSync(join(root, path), join(copy, path), { recursive: true });
  }
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(root, file), join(copy, file));
  }
  for (const file of ['clients/typescript/package.json', 'clients/typescript/tsconfig.json']) {
    cpSync(join(root, file), join(copy, file));
  }
  // What a build leaves: its outputs, then the fingerprint of the sources it was made from.
  for (const output of [
    'dist/server.js',
    'dist/cli/main.js',
    'dist/reports-thread.js',
    'dist/web/index.html',
  ]) {
    mkdirSync(join(copy, output, '..'), { recursive: true });
    writeFileSync(join(copy, output), '');
  }
  mkdirSync(join(copy, 'clients/typescript/dist'), { recursive: true });
  await run(process.execPath, [join(copy, 'scripts', 'build-if-changed.mjs'), '--stamp']);
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('building only what changed', () => {
  it('finds a build of the same sources up to date, whatever their files’ times say', async () => {
    expect(await buildDue()).toBe(false);
    const server = join(copy, 'src', 'server.ts');
    cpSync(server, `${server}.bak`);
    rmSync(server);
    cpSync(`${server}.bak`, server); // same content, a new file time
    rmSync(`${server}.bak`);
    expect(await buildDue()).toBe(false);
  });

  it('leaves tests and what the build writes itself out of it', async () => {
    appendFileSync(join(copy, 'src', 'core', 'time.test.ts'), '\n// a test changed\n');
    mkdirSync(join(copy, 'web', 'src', 'api', 'generated'), { recursive: true });
    writeFileSync(join(copy, 'web', 'src', 'api', 'generated', 'admin-api.ts'), '// regenerated\n');
    expect(await buildDue()).toBe(false);
  });

  it.each([
    ['a server source', 'src/core/time.ts'],
    ['a page of the web interface', 'web/src/main.tsx'],
    ['the TypeScript client', 'clients/typescript/src/index.ts'],
    ['the locked dependencies', 'package-lock.json'],
    ['the way the server is bundled', 'scripts/build-server.mjs'],
  ])('builds again when %s changed', async (_what, file) => {
    const path = join(copy, file);
    cpSync(path, `${path}.before`);
    appendFileSync(path, '\n');
    expect(await buildDue()).toBe(true);
    cpSync(`${path}.before`, path);
    rmSync(`${path}.before`);
    expect(await buildDue()).toBe(false);
  });

  it('builds again when an output is missing, or when the last build failed half-way', async () => {
    rmSync(join(copy, 'dist', 'web', 'index.html'));
    expect(await buildDue()).toBe(true);
    writeFileSync(join(copy, 'dist', 'web', 'index.html'), '');
    expect(await buildDue()).toBe(false);
    await run(process.execPath, [join(copy, 'scripts', 'build-if-changed.mjs'), '--forget']);
    expect(await buildDue()).toBe(true);
  });
});
