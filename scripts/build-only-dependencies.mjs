// Prints the packages in package.json's `dependencies` that the built server does not import:
// those only `npm run build` needs (TypeScript and type packages, esbuild, the packages bundled
// into the server, `vigil` and the web interface: all but the few scripts/build-server.mjs
// leaves out of its bundle). They are dependencies so that `npm ci --omit=dev && npm start` can
// build; the Dockerfile's runtime stage leaves them out, having been built already:
//
//   npm uninstall --no-save --omit=dev $(node scripts/build-only-dependencies.mjs)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** The packages the built server and `vigil` import at run time (written by build-server.mjs). */
const importsFile = join(root, 'dist', 'server-imports.json');
if (!existsSync(importsFile)) throw new Error(`${importsFile}: no built server here (npm run build first)`);
const imported = new Set(JSON.parse(readFileSync(importsFile, 'utf8')));

const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
console.log(
  Object.keys(dependencies)
    .filter((name) => !imported.has(name))
    .join(' '),
);
