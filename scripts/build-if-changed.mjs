// Builds what `npm start`, `npx vigil` and the tests run (`npm run build`: dist/, the web
// interface, the TypeScript client) unless nothing it is built from changed since the last
// build. What it is built from: the sources of the server, the web interface and the client
// (test files aside), the TypeScript configurations, the server bundle's script and the locked
// dependencies. Their fingerprint (SHA-256 of every path and its content, some 3 MB read in tens
// of milliseconds) is written beside the build when the build succeeds (`--stamp`, the build's
// last step), so a fresh `npm install`, which builds, is followed by starts that do not. The
// build forgets the fingerprint first (`--forget`): a build that fails half-way leaves none, and
// the next one builds whatever the sources are then.
//
//   node scripts/build-if-changed.mjs           build if a source changed, else say it is up to date
//   node scripts/build-if-changed.mjs --stamp   record the sources' fingerprint (the build's last step)
//   node scripts/build-if-changed.mjs --forget  forget it (the build's first step)
//   node scripts/build-if-changed.mjs --check   exit 0 when up to date, 1 when a build is due
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const STAMP = join(root, 'dist', '.sources.sha256');
/** What the build reads: folders walked whole, and single files. */
const FOLDERS = ['src', 'web', 'clients/typescript/src'];
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build-server.mjs',
  'clients/typescript/package.json',
  'clients/typescript/tsconfig.json',
];
/** Written by the build itself (the web interface's admin API types), or never read by it. */
const SKIPPED = [join('web', 'src', 'api', 'generated') + sep];
/** What the build must have made for the server and `vigil` to run. */
const OUTPUTS = [
  'dist/server.js',
  'dist/cli/main.js',
  'dist/reports-thread.js',
  'dist/web/index.html',
  'clients/typescript/dist',
];

function walk(folder, into) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (SKIPPED.some((skipped) => `${relative(root, path)}${sep}`.startsWith(skipped))) continue;
    if (entry.isDirectory()) walk(path, into);
    else if (entry.isFile() && !entry.name.endsWith('.test.ts')) into.push(path);
  }
  return into;
}

function sourcesFingerprint() {
  const files = FOLDERS.flatMap((folder) => walk(join(root, folder), []));
  for (const file of FILES) if (existsSync(join(root, file))) files.push(join(root, file));
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f).split(sep).join('/')).sort()) {
    const content = readFileSync(join(root, file));
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

function upToDate(fingerprint) {
  if (!OUTPUTS.every((output) => existsSync(join(root, output)))) return false;
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === fingerprint;
}

if (process.argv.includes('--forget')) {
  rmSync(STAMP, { force: true });
} else if (process.argv.includes('--stamp')) {
  writeFileSync(STAMP, `${sourcesFingerprint()}\n`);
} else if (process.argv.includes('--check')) {
  process.exitCode = upToDate(sourcesFingerprint()) ? 0 : 1;
} else if (upToDate(sourcesFingerprint())) {
  console.log('vigil: the build is up to date (dist/); nothing to rebuild');
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
}
