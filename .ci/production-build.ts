/**
 * The production image built without Docker, then the plain production install. Usage, from the
 * repository (CI runs it after the test suites):
 *
 *   node --import tsx .ci/production-build.ts
 *
 * 1. Reads the Dockerfile with the parser test/deploy-files.test.ts uses and carries out its
 *    steps here, each stage in a temporary directory standing for its WORKDIR, from the
 *    committed tree (HEAD; `.dockerignore` leaves nothing tracked out, the test checks it):
 *    RUN through /bin/sh with the stage's ENV, COPY from the context or `--from` a stage.
 *    Then it runs the last stage's CMD and checks /healthz, /readyz, the web interface and the
 *    image's HEALTHCHECK command; runs compose.yaml's `worker` command beside it; stops both
 *    with SIGTERM, expecting exit code 0; and checks that `npm start` serves there too (with
 *    no src/, its prestart builds nothing).
 * 2. Clones HEAD afresh and runs `npm ci --omit=dev`, then `npm start`: /readyz, /admin/, and
 *    exit code 0 after SIGTERM.
 *
 * What Docker would do and this does not: pull the base images (it checks instead that their
 * Node.js major version is this machine's), switch to USER (it runs as the current user, with
 * HOST=127.0.0.1 instead of the image's 0.0.0.0). npm's cache is reused
 * (npm_config_prefer_offline) so packages already fetched are not fetched again.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix, resolve } from 'node:path';
import {
  healthcheckCommand,
  type Instruction,
  instructionsOf,
  NO_DOCKER_INSTRUCTIONS,
  ROOT,
  readCompose,
  readDockerfile,
  type Stage,
  stageEnv,
} from '../test/helpers/deploy-files.js';
import { freePort } from '../test/helpers/server-process.js';
import {
  exitOf,
  expectStatus,
  expectWebInterface,
  killAll,
  outputOf,
  runToEnd,
  seconds,
  start,
  stopWith,
  tail,
  until,
  untilOutput,
} from './processes.js';

const started = Date.now();
const step = (what: string) => console.log(`\n--- ${what} (${seconds(started)})`);

/** The environment every command starts from: little of this shell's, as in a clean build. */
const BASE_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  // npm's cache and user configuration (~/.npmrc) stay those of this machine.
  HOME: process.env.HOME ?? '/root',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  // node-gyp compiles better-sqlite3 (when no prebuilt binary is found) on every core.
  JOBS: 'max',
  // .ci/run puts ccache's cc and g++ first on PATH: compiles made before are cache hits, the
  // same object files as a plain compile gives. Its settings (CCACHE_DIR …) come along.
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('CCACHE_'))),
};

const work = mkdtempSync(join(tmpdir(), 'vigil-production-build-'));

try {
  const commit = git('rev-parse', 'HEAD');
  console.log(`production build of ${commit.slice(0, 12)} in ${work}`);
  await buildImageWithoutDocker(commit);
  await productionInstall(commit);
  console.log(`\nproduction build: all checks passed in ${seconds(started)}`);
} catch (err) {
  console.error(
    `\nproduction build FAILED after ${seconds(started)}: ${err instanceof Error ? err.message : err}`,
  );
  process.exitCode = 1;
} finally {
  killAll();
  if (process.env.KEEP_PRODUCTION_BUILD) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

async function buildImageWithoutDocker(commit: string): Promise<void> {
  step('Dockerfile: the build context (git archive HEAD)');
  const context = join(work, 'context');
  mkdirSync(context);
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${context}"`]);

  const stages = readDockerfile(join(context, 'Dockerfile'));
  const dirs = new Map<string, { dir: string; workdir: string }>();
  for (const stage of stages) {
    const dir = join(work, `stage-${stage.name}`);
    mkdirSync(dir);
    dirs.set(stage.name, await runStage(stage, dir, context, dirs));
  }

  const image = stages.at(-1)!;
  const imageDir = dirs.get(image.name)!.dir;
  step(
    `the image (stage ${image.name}): ${du(imageDir)} (node_modules ${du(join(imageDir, 'node_modules'))})`,
  );
  const cmd = only(image, 'CMD').exec;
  if (!cmd) throw new Error('CMD must be in exec form');
  if (instructionsOf(image, 'ENTRYPOINT').length > 0) throw new Error('ENTRYPOINT is not supported here');
  const port = await freePort();
  const env = { ...BASE_ENV, ...stageEnv(image), HOST: '127.0.0.1', PORT: String(port) };
  const base = `http://127.0.0.1:${port}`;

  step(`start ${cmd.join(' ')} (the image's default database: SQLite in ./data)`);
  const server = start(cmd, imageDir, env, 'server');
  await until(server, `${base}/healthz`, 60_000);
  await expectStatus(`${base}/healthz`, 200);
  await expectStatus(`${base}/readyz`, 200);
  await expectWebInterface(base);

  const healthcheck = healthcheckCommand(only(image, 'HEALTHCHECK'));
  if (!healthcheck) throw new Error('HEALTHCHECK must be `CMD [...]` in exec form');
  const healthcheckExit = await exitOf(start(healthcheck, imageDir, env, 'healthcheck'), 30_000);
  if (healthcheckExit !== 0) throw new Error(`the HEALTHCHECK command exited ${healthcheckExit}`);
  console.log('HEALTHCHECK command: exit 0');

  const workerCommand = readCompose(join(context, 'compose.yaml')).services.worker?.command;
  if (!Array.isArray(workerCommand))
    throw new Error('compose.yaml: the worker service needs a command array');
  step(`compose.yaml's worker: ${workerCommand.join(' ')}`);
  const worker = start(workerCommand, imageDir, { ...env, PUBLIC_URL: base }, 'worker');
  await untilOutput(worker, /background work started/, 30_000);
  await stopWith(worker, 'SIGTERM', 'worker');

  step('SIGTERM to the server');
  await stopWith(server, 'SIGTERM', 'server');

  // With no src/ to build, `npm start` (its prestart) serves the dist/ of the build stage.
  step('npm start in the image');
  await npmStart(imageDir, { ...stageEnv(image), HOST: '127.0.0.1' }, 60_000);
}

/** Carries out one stage's instructions in `dir`, which stands for the stage's WORKDIR. */
async function runStage(
  stage: Stage,
  dir: string,
  context: string,
  built: Map<string, { dir: string; workdir: string }>,
): Promise<{ dir: string; workdir: string }> {
  step(`stage ${stage.name} (FROM ${stage.image})`);
  const node = /^node:(\d+)/.exec(stage.image)?.[1];
  const here = process.versions.node.split('.')[0];
  if (node !== here)
    throw new Error(`FROM ${stage.image}: this machine has Node.js ${here}, not the image's`);
  let workdir: string | undefined;
  const env: Record<string, string> = {};
  const inStage = (path: string) => {
    if (!workdir) throw new Error(`stage ${stage.name}: WORKDIR must come before ${path}`);
    const absolute = posix.resolve(workdir, path);
    if (absolute !== workdir && !absolute.startsWith(`${workdir}/`)) {
      throw new Error(`stage ${stage.name}: ${path} is outside WORKDIR ${workdir}`);
    }
    return join(dir, posix.relative(workdir, absolute));
  };

  for (const instruction of stage.instructions) {
    const at = `Dockerfile line ${instruction.line}: ${instruction.keyword} ${instruction.text}`;
    if (!NO_DOCKER_INSTRUCTIONS.includes(instruction.keyword)) {
      throw new Error(`${at}: not supported by the no-Docker build (.ci/production-build.ts)`);
    }
    switch (instruction.keyword) {
      case 'WORKDIR':
        if (workdir) throw new Error(`${at}: one WORKDIR per stage here`);
        workdir = posix.resolve('/', instruction.text);
        break;
      case 'ENV':
        for (const [name, value] of instruction.env) env[name] = value;
        break;
      case 'COPY':
        copy(instruction, at, context, built, inStage);
        break;
      case 'RUN': {
        console.log(`$ ${instruction.text}`);
        const command = instruction.exec ?? ['/bin/sh', '-c', instruction.text];
        await runToEnd(command, dir, { ...BASE_ENV, ...env }, at);
        break;
      }
      default:
        break; // the image's metadata (USER, CMD …): read when the image runs
    }
  }
  if (!workdir) throw new Error(`stage ${stage.name}: no WORKDIR`);
  return { dir, workdir };
}

/** COPY as Docker does it: a directory's contents, a file into a directory (`dest/`) or as `dest`. */
function copy(
  instruction: Instruction,
  at: string,
  context: string,
  built: Map<string, { dir: string; workdir: string }>,
  inStage: (path: string) => string,
): void {
  // --chown: everything here belongs to the user running this.
  const unsupported = Object.keys(instruction.flags).filter((flag) => flag !== 'from' && flag !== 'chown');
  if (unsupported.length > 0 || instruction.exec) throw new Error(`${at}: only --from and --chown here`);
  const from = instruction.flags.from;
  const paths = instruction.args;
  const destination = paths.at(-1)!;
  const sources = paths.slice(0, -1);
  if (sources.length === 0) throw new Error(`${at}: nothing to copy`);
  const source = (path: string) => {
    if (/[*?[]/.test(path)) throw new Error(`${at}: wildcards are not supported here`);
    if (!from) return resolveInside(context, path, at);
    const stage = built.get(from);
    if (!stage) throw new Error(`${at}: no stage ${from} before this one`);
    const absolute = posix.resolve(stage.workdir, path);
    if (!absolute.startsWith(`${stage.workdir}/`))
      throw new Error(`${at}: ${path} is outside ${stage.workdir}`);
    return join(stage.dir, posix.relative(stage.workdir, absolute));
  };
  const intoDirectory = destination.endsWith('/') || sources.length > 1;
  for (const path of sources) {
    const src = source(path);
    if (!existsSync(src)) throw new Error(`${at}: ${path} does not exist`);
    const dest = inStage(destination);
    if (statSync(src).isDirectory()) {
      mkdirSync(dest, { recursive: true });
      cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
    } else {
      const target = intoDirectory ? join(dest, basename(src)) : dest;
      mkdirSync(resolve(target, '..'), { recursive: true });
      cpSync(src, target);
    }
  }
  console.log(`COPY ${instruction.text}${from ? ` (from ${from})` : ''}`);
}

function resolveInside(root: string, path: string, at: string): string {
  const absolute = resolve(root, path);
  if (absolute !== root && !absolute.startsWith(`${root}/`))
    throw new Error(`${at}: ${path} is outside the context`);
  return absolute;
}

async function productionInstall(commit: string): Promise<void> {
  step('fresh clone: npm ci --omit=dev');
  const clone = join(work, 'clone');
  execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, clone]);
  execFileSync('git', ['-C', clone, 'checkout', '--quiet', commit]);
  await runToEnd(['npm', 'ci', '--omit=dev'], clone, BASE_ENV, 'npm ci --omit=dev');
  if (existsSync(join(clone, 'node_modules', 'vitest')))
    throw new Error('npm ci --omit=dev installed vitest');

  step('fresh clone: npm start');
  const output = await npmStart(
    clone,
    { DATABASE_URL: `sqlite:${join(work, 'clone-data', 'vigil.db')}` },
    180_000,
  );
  // npm ci's prepare built it: the first start builds nothing (scripts/build-if-changed.mjs).
  if (!output.includes('the build is up to date'))
    throw new Error(`npm start rebuilt what npm ci had just built:\n${output.slice(0, 2000)}`);
  console.log('npm start: built nothing, npm ci had built it');
}

/**
 * `npm start` in `dir` serves (/readyz, /admin/) and ends with exit code 0 when the server gets
 * SIGTERM; what it printed. npm passes no signal on to the server it started (`sh -c node …`), so the server
 * gets it, as from a process manager.
 */
async function npmStart(dir: string, vars: Record<string, string>, timeoutMs: number): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = start(['npm', 'start'], dir, { ...BASE_ENV, ...vars, PORT: String(port) }, 'npm start');
  await until(child, `${base}/readyz`, timeoutMs);
  await expectStatus(`${base}/readyz`, 200);
  await expectWebInterface(base);
  const pid = /"pid":(\d+)/.exec(outputOf(child))?.[1];
  if (!pid) throw new Error(`no pid in the server log:\n${tail(child)}`);
  process.kill(Number(pid), 'SIGTERM');
  const code = await exitOf(child, 40_000);
  if (code !== 0) throw new Error(`npm start exited ${code} after SIGTERM to the server:\n${tail(child)}`);
  console.log('npm start: exit 0 after SIGTERM to the server');
  return outputOf(child);
}

function only(stage: Stage, keyword: string): Instruction {
  const found = instructionsOf(stage, keyword);
  if (found.length !== 1) throw new Error(`stage ${stage.name}: ${found.length} ${keyword} instead of one`);
  return found[0]!;
}

function git(...args: string[]): string {
  return execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();
}

function du(path: string): string {
  return execFileSync('du', ['-sh', path], { encoding: 'utf8' }).split('\t')[0] ?? '?';
}
