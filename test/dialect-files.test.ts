import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesIndependentOfTheDialect } from './helpers/dialect-files.js';

// The PostgreSQL + Redis run leaves out the files this finds; one wrongly found would go
// untested on PostgreSQL, so each way of reaching the variables is tried here.

const dir = mkdtempSync(join(tmpdir(), 'vigil-dialect-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe('the test files the PostgreSQL run can leave to npm test', () => {
  it('are those that reach neither TEST_DATABASE_URL nor TEST_REDIS_URL through any import', () => {
    write({
      'src/pure.test.ts': "import { a } from './pure.js';\nimport './side-effect.js';",
      'src/pure.ts': "export { b as a } from './lib/index.js';",
      'src/side-effect.ts': '',
      'src/lib/index.ts': "export const b = 1; import('./cycle.js');",
      'src/lib/cycle.ts': "import { b } from './index.js';",
      'src/direct.test.ts': 'const url = process.env.TEST_DATABASE_URL;',
      'src/deep.test.ts': "import { x } from './one.js';",
      'src/one.ts': "export { x } from './two.js';",
      'src/two.ts': "import { y } from '../test/helpers/db.js';",
      'test/helpers/db.ts': 'export const y = process.env.TEST_REDIS_URL;',
      'test/unfollowed.test.ts': "import { z } from './nowhere.js';",
      'test/settings.test.ts': "import { spawn } from 'node:child_process';",
      'test/browser/page.test.ts': '',
      'test/helpers/not-a-test.ts': '',
    });
    expect(filesIndependentOfTheDialect(dir, ['src', 'test'], ['test/browser'])).toEqual([
      'src/pure.test.ts',
      'test/settings.test.ts',
    ]);
  });

  it('in this repository, include a pure unit test and none that opens a database', () => {
    const root = resolve(import.meta.dirname, '..');
    const independent = filesIndependentOfTheDialect(root, ['src', 'test'], ['test/browser']);
    expect(independent).toContain('src/core/auth/permissions.test.ts');
    for (const file of [
      'test/faults.test.ts',
      'src/modules/directory/groups/groups.test.ts',
      'test/dialect-files.test.ts',
    ])
      expect(independent).not.toContain(file);
  });
});
