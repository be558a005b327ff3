// Bundles the administrator web interface into dist/web/ (served by the server at /admin/).
// Usage: node web/build.mjs   (run by `npm run build` after the server's bundle: the admin API's
// types are generated first from its route schemas, see api-types.mjs)
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { writeAdminApiTypes } from './api-types.mjs';

const webDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(webDir);
const outDir = join(root, 'dist', 'web');
const assetsDir = join(outDir, 'assets');
const publicPath = '/admin/assets';

const started = performance.now();
await writeAdminApiTypes();
await rm(outDir, { recursive: true, force: true });
await mkdir(assetsDir, { recursive: true });

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [join(webDir, 'src', 'main.tsx')],
  bundle: true,
  outdir: assetsDir,
  entryNames: '[name]-[hash]',
  // Pages loaded on demand (the campaign page's charts, the course editor) become chunks.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  jsx: 'automatic',
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});

// The Outlook add-in's task pane script (web/addin/), served by the server as
// /addins/outlook/addin.js: one classic script (Office.js is one too), no chunks.
await esbuild.build({
  absWorkingDir: root,
  entryPoints: [join(webDir, 'addin', 'taskpane.ts')],
  bundle: true,
  outfile: join(outDir, 'addin', 'addin.js'),
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// The entry's JS and every CSS file, from the metafile (their names carry a content hash). The
// CSS of on-demand chunks is small and linked up front too: esbuild loads only their JS.
// Lazily imported pages are entry points too, so the app's own is picked by its source file.
let script = null;
let preloads = [];
const stylesheets = [];
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (output.entryPoint === relative(root, join(webDir, 'src', 'main.tsx')) && file.endsWith('.js')) {
    script = basename(file);
    // The chunks it imports statically are fetched at once, not after the entry has been read.
    preloads = output.imports.filter((i) => i.kind === 'import-statement').map((i) => basename(i.path));
  }
  if (file.endsWith('.css')) stylesheets.push(basename(file));
}
if (!script) throw new Error('web build: no JavaScript output found in the metafile');

// The favicon keeps a fixed name: it is tiny and referenced only from index.html.
await copyFile(join(webDir, 'public', 'favicon.svg'), join(assetsDir, 'favicon.svg'));

const template = await readFile(join(webDir, 'index.html'), 'utf8');
const html = template
  .replace(
    '<!-- styles -->',
    stylesheets.map((css) => `<link rel="stylesheet" href="${publicPath}/${css}">`).join('\n    '),
  )
  .replace(
    '<!-- script -->',
    [
      ...preloads.map((chunk) => `<link rel="modulepreload" href="${publicPath}/${chunk}">`),
      `<script type="module" src="${publicPath}/${script}"></script>`,
    ].join('\n    '),
  );
await writeFile(join(outDir, 'index.html'), html);

// Brotli and gzip copies beside each text asset: the server sends the one the browser accepts
// (@fastify/static `preCompressed`), so a phone downloads about a fifth of the bytes.
// What a first visit downloads: the entry, the chunks it preloads, and the stylesheets.
const firstLoad = new Set([script, ...preloads, ...stylesheets]);
let firstLoadBrotli = 0;
for (const name of await readdir(assetsDir)) {
  if (!/\.(js|css|svg)$/.test(name)) continue;
  const body = await readFile(join(assetsDir, name));
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } });
  await writeFile(join(assetsDir, `${name}.br`), br);
  await writeFile(join(assetsDir, `${name}.gz`), gzipSync(body, { level: 9 }));
  if (firstLoad.has(name)) firstLoadBrotli += br.length;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
const size = (name) => result.metafile.outputs[join(relative(root, assetsDir), name)]?.bytes ?? 0;
const firstLoadBytes = [...firstLoad].reduce((sum, name) => sum + size(name), 0);
console.log(
  `web: built ${relative(root, outDir)}/ in ${Math.round(performance.now() - started)} ms; first visit ` +
    `${kib(firstLoadBytes)} (${kib(firstLoadBrotli)} brotli) in ${firstLoad.size} files, the rest loads with the pages that need it`,
);
