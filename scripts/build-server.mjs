// Bundles the server and the `vigil` command into dist/ (run by `npm run build`, before the web
// interface). Usage: node scripts/build-server.mjs
//
// Why a bundle and not tsc's one file per module: Node loads a thousand small modules (our ~300,
// Kysely's and TypeBox's ~250 each, validator's 114 …) far slower than a few large ones. Every
// `vigil` command paid ~1.1 s of CPU before doing anything, and the server held ~25 MiB more
// from its start (measured: `vigil --version` 1.1 → 0.35 CPU-s, 95 → 73 MiB).
//
// What it writes (the entries other files name; the rest are shared chunks):
//   dist/server.js                    `npm start`, the Dockerfile's CMD, the tests' servers
//   dist/cli/main.js                  bin/vigil.js
//   dist/reports-thread.js            the reported-message reading threads (reports.reader.service.ts)
//   dist/admin/openapi-document.js    the admin API's document, for the web interface's types
//
// Types are not checked here: `npm run typecheck` does that (CI runs it).
//
// Left out of the bundle, loaded from node_modules at run time: packages that read files of their
// own or load native code (better-sqlite3's binary, piscina's worker script, @fastify/swagger-ui's
// pages), and pg's optional native binding. The packages the bundle does import are written to
// dist/server-imports.json, which scripts/build-only-dependencies.mjs reads: the production image
// keeps exactly these.

import { readdir, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

const EXTERNAL = ['better-sqlite3', 'piscina', '@fastify/swagger-ui', 'pg-native'];

const started = performance.now();
// The previous build, less what other steps write into dist/ (the web interface, the OpenAPI
// document of `npm run openapi`): a file of an older layout must not linger to be loaded.
const kept = new Set(['web', 'openapi']);
for (const entry of await readdir(dist).catch(() => [])) {
  if (!kept.has(entry)) await rm(join(dist, entry), { recursive: true, force: true });
}

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    server: 'src/server.ts',
    'cli/main': 'src/cli/main.ts',
    'reports-thread': 'src/modules/phishing/reports/reports.thread.service.ts',
    'admin/openapi-document': 'src/admin/openapi-document.ts',
  },
  bundle: true,
  // server.js checks the settings before loading the rest (serve.ts), which becomes a chunk.
  splitting: true,
  outdir: dist,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // Stack traces name the bundle's lines, each module marked by a `// src/…` comment; with
  // `node --enable-source-maps` they name the sources.
  sourcemap: 'linked',
  // The bundled CommonJS packages call require(), and a few read __dirname: give them both.
  banner: {
    js: [
      "import { createRequire as __vigilCreateRequire } from 'node:module';",
      "import { dirname as __vigilDirname } from 'node:path';",
      "import { fileURLToPath as __vigilFileURLToPath } from 'node:url';",
      'const require = __vigilCreateRequire(import.meta.url);',
      'const __filename = __vigilFileURLToPath(import.meta.url);',
      'const __dirname = __vigilDirname(__filename);',
    ].join('\n'),
  },
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const builtins = new Set(builtinModules);
const imported = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    if (external && !path.startsWith('node:') && !builtins.has(path.split('/')[0]))
      imported.add(packageOf(path));
  }
}
await writeFile(join(dist, 'server-imports.json'), `${JSON.stringify([...imported].sort(), null, 2)}\n`);
console.log(
  `server: bundled ${Object.keys(result.metafile.inputs).length} modules into ${outputs.length} files of dist/ in ${Math.round(performance.now() - started)} ms`,
);
