// Prints the packages in package.json's `dependencies` that the built server does not import:
// those only `npm run build` needs (TypeScript and type packages, esbuild, the packages bundled
// into the web interface). They are dependencies so that `npm ci --omit=dev && npm start` can
// build; the Dockerfile's runtime stage leaves them out, having been built already:
//
//   npm uninstall --no-save --omit=dev $(node scripts/build-only-dependencies.mjs)
//
// Reads dist/ (built), not dist/web/ (bundled, imports nothing at run time).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');

/** The package each bare import specifier names: `@scope/name/sub` → `@scope/name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const imported = new Set();
const specifiers = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"./][^'"]*)['"]/g;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name);
  if (!entry.isFile() || !/\.[cm]?js$/.test(entry.name) || path.startsWith(join(dist, 'web'))) continue;
  for (const [, specifier] of readFileSync(path, 'utf8').matchAll(specifiers))
    imported.add(packageOf(specifier));
}
if (!imported.has('fastify')) throw new Error(`${dist}: no built server here (npm run build first)`);

const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
console.log(
  Object.keys(dependencies)
    .filter((name) => !imported.has(name))
    .join(' '),
);
