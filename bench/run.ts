import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Dialect } from '../src/core/db/database.js';
import { type LoadOptions, type LoadResult, type LoadSpec, runLoad } from './load.js';
import { type BenchServer, gitRevision, memoryOf, ROOT, startProcess, TMP } from './processes.js';
import { type ReplaceResult, timeReplacements } from './replace.js';
import { type Measured, renderSection, writeSection } from './report.js';
import {
  API,
  baselineSpec,
  CLUSTER_CONNECTIONS,
  clusterScenarios,
  loadScenarios,
  SCENARIOS,
  type ScenarioId,
  speedUp,
} from './scenarios.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL, type Seeded, seed } from './seed.js';

/**
 * `npm run bench [-- --db sqlite|postgres|both] [--write]`: seeds a fresh database, starts the
 * built server and a bare Fastify baseline as separate processes, loads each endpoint with
 * autocannon and prints a Markdown table (written to bench/RESULTS.md with --write).
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    write: { type: 'boolean', default: process.env.BENCH_WRITE === '1' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    'put-runs': { type: 'string', default: '5' },
    'log-level': { type: 'string', default: 'info' },
    'cpu-prof': { type: 'boolean', default: false },
    employees: { type: 'string', default: '100000' },
    /** Leave out the same endpoints on a server of WEB_CONCURRENCY=2 (Node 20's parseArgs has no negated flags). */
    'no-cluster': { type: 'boolean', default: false },
    groups: { type: 'string', default: '200' },
    members: { type: 'string', default: '10000' },
    /** Comma-separated subset of the scenarios (for profiling one endpoint); the baseline always runs. */
    only: { type: 'string', default: SCENARIOS.join(',') },
    /** Leave out the phishing benches (launch, tracking against the baseline, results) that follow. */
    'no-phishing': { type: 'boolean', default: false },
  },
});

const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dbArg = args.db ?? (process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite');
const dialects: Dialect[] = dbArg === 'both' ? ['sqlite', 'postgres'] : [dbArg as Dialect];
if (!dialects.every((d) => d === 'sqlite' || d === 'postgres')) {
  throw new Error(`--db must be sqlite, postgres or both, got "${dbArg}"`);
}
const load: LoadOptions = {
  connections: Number(args.connections),
  duration: Number(args.duration),
  warmup: Number(args.warmup),
};
const size = {
  employees: Number(args.employees),
  groups: Number(args.groups),
  bigGroupMembers: Number(args.members),
};
const logLevel = args['log-level'] as string;
const only = new Set(args.only?.split(',') as ScenarioId[]);

/** Everything to undo if the run stops half-way (servers, the throwaway database). */
const cleanups: (() => Promise<void>)[] = [];
async function cleanUp(): Promise<void> {
  for (const undo of cleanups.splice(0).reverse()) await undo().catch((err) => console.error(err));
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

function say(message: string): void {
  console.error(`[bench] ${message}`);
}

/** One request per endpoint before loading it: a benchmark of wrong answers is worthless. */
async function preflight(vigil: BenchServer, seeded: Seeded): Promise<void> {
  const get = async (path: string, key: string) => {
    const res = await fetch(`${vigil.baseUrl}${API}${path}`, { headers: { apikey: key } });
    if (res.status !== 200) throw new Error(`preflight GET ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const groups = await get('/groups/', seeded.keys.groups);
  if (groups.count !== seeded.groupCount) throw new Error(`preflight: ${groups.count} groups`);
  const email = seeded.employeeEmails[seeded.employeeEmails.length - 1] as string;
  const found = await get(`/employees/?email=${encodeURIComponent(email)}`, seeded.keys.email);
  if (found.count !== 1) throw new Error(`preflight: email lookup found ${found.count}`);
  const detail = await get(`/groups/${seeded.bigGroupId}/`, seeded.keys.detail);
  if ((detail.employees as unknown[]).length !== seeded.bigGroupSize)
    throw new Error('preflight: big group size');
}

function countErrorLines(logFile: string): number {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line)).length;
}

async function benchDialect(dialect: Dialect): Promise<Measured> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const machine = `${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}`;
  const loadAtStart = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

  const database = await createBenchDatabase(dialect, postgresUrl);
  cleanups.push(() => database.drop());
  say(`${label}: seeding ${size.employees} employees, ${size.groups} groups…`);
  let t = performance.now();
  const seeded = await seed(database.url, size);
  say(`${label}: seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // The latest run's logs, kept for a look (the server's can be tens of MiB at LOG_LEVEL=info).
  const hello = await startProcess({
    args: ['bench/hello-server.mjs'],
    env: { NODE_ENV: 'production' },
    readyPath: '/',
    logFile: join(TMP, 'hello.log'),
  });
  cleanups.push(() => hello.stop());
  const profDir = join(TMP, 'prof');
  const vigil = await startProcess({
    args: [...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), 'dist/server.js'],
    env: { NODE_ENV: 'production', DATABASE_URL: database.url, LOG_LEVEL: logLevel },
    readyPath: '/readyz',
    logFile: join(TMP, `server-${dialect}.log`),
  });
  cleanups.push(() => vigil.stop());
  const idleRss = memoryOf(vigil.pid).rss;
  await preflight(vigil, seeded);

  const results: LoadResult[] = [];
  const measure = async (spec: Omit<LoadSpec, 'pid' | 'baseUrl'>, server: BenchServer) => {
    say(`${label}: ${spec.label}…`);
    const result = await runLoad({ ...spec, pid: server.pid, baseUrl: server.baseUrl }, load);
    say(
      `  ${Math.round(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
        `server CPU ${Math.round(result.cpuMsPerRequest * 1000)} µs/req, bad ${result.bad}`,
    );
    return result;
  };

  // The machine settles after seeding (PostgreSQL's autovacuum, the page cache), and the client
  // warms up on the baseline, before anything is measured.
  await new Promise((r) => setTimeout(r, 3000));
  await runLoad(
    { ...baselineSpec('warm-up'), pid: hello.pid, baseUrl: hello.baseUrl },
    { ...load, warmup: 0 },
  );
  const baselines = [await measure(baselineSpec('first'), hello)];
  const endpoints: Measured['endpoints'] = [];
  const scenarios = loadScenarios(seeded, dialect).filter((s) => only.has(s.id));
  for (const scenario of scenarios) {
    const result = await measure(scenario.spec, vigil);
    results.push(result);
    endpoints.push({ result, ...(scenario.target ? { target: scenario.target } : {}) });
  }

  // The same loads on a server of two worker processes (and its primary), on the same database.
  // Each request of a worker waits a little for its primary's count of the key's budget, so two
  // processes need more requests in flight than one to keep both cores busy: the speed-up is
  // judged at CLUSTER_CONNECTIONS connections, on one process and on two.
  let cluster: Measured['endpoints'] | undefined;
  const clustered = clusterScenarios(scenarios);
  if (!args['no-cluster'] && clustered.single) {
    const single = await measure(clustered.single.spec, vigil);
    const pair = await startProcess({
      args: ['dist/server.js'],
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        LOG_LEVEL: logLevel,
        WEB_CONCURRENCY: '2',
        WORKERS: 'off',
      },
      readyPath: '/readyz',
      logFile: join(TMP, `server-${dialect}-cluster.log`),
    });
    cleanups.push(() => pair.stop());
    // Both workers listening before the load starts.
    await new Promise((r) => setTimeout(r, 1000));
    cluster = [{ result: single }];
    for (const scenario of clustered.cluster) {
      const result = await measure(scenario.spec, pair);
      const judged = scenario.spec.connections === CLUSTER_CONNECTIONS;
      cluster.push({ result, ...(judged ? { target: speedUp(single) } : {}) });
    }
    await pair.stop();
  }
  baselines.push(await measure(baselineSpec('again at the end'), hello));

  let replace: ReplaceResult | undefined;
  if (only.has('put')) {
    say(`${label}: PUT of ${seeded.employeeIds.length} ids, ${args['put-runs']} runs…`);
    t = performance.now();
    replace = await timeReplacements({
      baseUrl: vigil.baseUrl,
      pid: vigil.pid,
      key: seeded.keys.replace,
      groupId: seeded.replaceGroupId,
      employeeIds: seeded.employeeIds,
      runs: Number(args['put-runs']),
    });
    say(`  done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }

  const hwm = memoryOf(vigil.pid).hwm;
  await cleanUp();

  return {
    dialect,
    heading: `${label}${logLevel === 'info' ? '' : ` (LOG_LEVEL=${logLevel})`}`,
    meta: [
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${gitRevision()}`,
      `machine: ${machine}; load average at start ${loadAtStart}`,
      `seed: ${size.employees.toLocaleString('en')} employees, ${size.groups} groups, one of ${seeded.bigGroupSize.toLocaleString('en')} members`,
      `autocannon: ${load.connections} connections, ${load.warmup} s warm-up + ${load.duration} s per row; server \`dist/server.js\` with NODE_ENV=production, LOG_LEVEL=${logLevel}${logLevel === 'info' ? ' (one JSON line per request, to a file)' : ' (no line per request)'}`,
      'ratio: req/s over the mean of the two baseline rows',
    ],
    baselines,
    endpoints,
    ...(cluster ? { cluster } : {}),
    ...(replace ? { replace } : {}),
    rss: { idle: idleRss, hwm },
    serverErrors: countErrorLines(vigil.logFile),
  };
}

mkdirSync(TMP, { recursive: true });
try {
  for (const dialect of dialects) {
    const measured = await benchDialect(dialect);
    const section = renderSection(measured);
    console.log(`\n${section}\n`);
    if (args.write) {
      const key = `${dialect}${logLevel === 'info' ? '' : `-${logLevel}`}`;
      writeSection(resolve(ROOT, 'bench/RESULTS.md'), key, section);
      say(`wrote the ${key} section of bench/RESULTS.md`);
    }
  }
} finally {
  await cleanUp();
}

// Phishing simulations (issue 11): each bench is its own script (npm run bench:phishing-…),
// run here in turn on the same databases, writing its own sections of bench/RESULTS.md.
if (!args['no-phishing']) {
  for (const name of ['phishing-launch', 'phishing-tracking', 'phishing-results']) {
    say(`running bench/${name}.ts`);
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(ROOT, `bench/${name}.ts`),
        '--db',
        dbArg,
        ...(args.write ? ['--write'] : []),
      ],
      { stdio: 'inherit', cwd: ROOT },
    );
    if (run.status !== 0) process.exitCode = 1;
  }
}
