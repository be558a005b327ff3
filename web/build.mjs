// Bundles the administrator web interface into dist/web/ (served by the server at /admin/).
// Usage: node web/build.mjs   (run by `npm run build` after tsc)
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const webDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(webDir);
const outDir = join(root, 'dist', 'web');
const assetsDir = join(outDir, 'assets');
const publicPath = '/admin/assets';

const started = performance.now();
await rm(outDir, { recursive: true, force: true });
await mkdir(assetsDir, { recursive: true });

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [join(webDir, 'src', 'main.tsx')],
  bundle: true,
  outdir: assetsDir,
  entryNames: '[name]-[hash]',
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

// The entry's JS and CSS files, from the metafile (their names carry a content hash).
let script = null;
let stylesheet = null;
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (output.entryPoint && file.endsWith('.js')) script = basename(file);
  if (file.endsWith('.css')) stylesheet = basename(file);
}
if (!script) throw new Error('web build: no JavaScript output found in the metafile');

// The favicon keeps a fixed name: it is tiny and referenced only from index.html.
await copyFile(join(webDir, 'public', 'favicon.svg'), join(assetsDir, 'favicon.svg'));

const template = await readFile(join(webDir, 'index.html'), 'utf8');
const html = template
  .replace('<!-- styles -->', stylesheet ? `<link rel="stylesheet" href="${publicPath}/${stylesheet}">` : '')
  .replace('<!-- script -->', `<script type="module" src="${publicPath}/${script}"></script>`);
await writeFile(join(outDir, 'index.html'), html);

// Brotli and gzip copies beside each text asset: the server sends the one the browser accepts
// (@fastify/static `preCompressed`), so a phone downloads about a fifth of the bytes.
let compressed = 0;
for (const name of await readdir(assetsDir)) {
  if (!/\.(js|css|svg)$/.test(name)) continue;
  const body = await readFile(join(assetsDir, name));
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } });
  await writeFile(join(assetsDir, `${name}.br`), br);
  await writeFile(join(assetsDir, `${name}.gz`), gzipSync(body, { level: 9 }));
  if (name === script) compressed = br.length;
}

const kib = (name) => (result.metafile.outputs[join(relative(root, assetsDir), name)]?.bytes ?? 0) / 1024;
console.log(
  `web: built ${relative(root, outDir)}/ (${script} ${kib(script).toFixed(0)} KiB, ${(compressed / 1024).toFixed(0)} KiB brotli` +
    (stylesheet ? `, ${stylesheet} ${kib(stylesheet).toFixed(0)} KiB` : '') +
    `) in ${Math.round(performance.now() - started)} ms`,
);
