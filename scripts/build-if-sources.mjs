// `prepare` (npm install, npm ci) and `prestart` (npm start): `npm run build` (dist/ from src/
// and web/). Without src/ there is nothing to build and this does nothing: the Dockerfile installs
// the dependencies before it copies the sources in, and its runtime stage holds only the dist/
// its build stage made, so `npm start` there serves that.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('src')) {
  // npm sets npm_execpath to its own CLI, so the npm that runs this script also builds.
  const npm = process.env.npm_execpath;
  const { status } = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  process.exitCode = status ?? 1;
} else {
  console.log('no src/ here: nothing to build, dist/ is used as it is');
}
