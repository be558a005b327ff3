import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding Vigil's package.json: the repository, or /app in the image. Found by
 * walking up from this module, which is src/core/paths.ts in the sources (Vitest, tsx) and a
 * file of dist/ once built (the build bundles the server and `vigil` into a few files of dist/,
 * so a module's own folder says nothing about where content/ or dist/web are).
 */
function projectRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'vigil') return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no Vigil package.json above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}

const PROJECT_ROOT = projectRoot();

/** A path inside the project: `fromProjectRoot('content', 'courses')`. */
export function fromProjectRoot(...parts: string[]): string {
  return join(PROJECT_ROOT, ...parts);
}
