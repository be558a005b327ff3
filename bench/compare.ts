import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Dialect } from '../src/core/db/database.js';
import { runLoad } from './load.js';
import { type BenchServer, cpuMsOfCommand, startProcess, TMP } from './processes.js';
import { median, timeReplacements } from './replace.js';
import { loadScenarios, SCENARIOS, type ScenarioId } from './scenarios.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL, seed } from './seed.js';

/**
 * `node --import tsx bench/compare.ts --b OTHER/server.js [--a dist/server.js] [--db sqlite]`:
 * two builds of the server on one seeded database, loaded in turns (A B A B …) so that
 * other load on the machine hits both alike. For measuring a change before applying it:
 * build the changed tree elsewhere (e.g. into bench/.tmp) and compare.
 */

const { values: args } = parseArgs({
  options: {
    a: { type: 'string', default: 'dist/server.js' },
    b: { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    only: { type: 'string', default: SCENARIOS.join(',') },
    'put-runs': { type: 'string', default: '2' },
    employees: { type: 'string', default: '100000' },
    members: { type: 'string', default: '10000' },
  },
});
if (!args.b) throw new Error('--b PATH/server.js is required');
const only = new Set(args.only?.split(',') as ScenarioId[]);
const rounds = Number(args.rounds);
const load = { connections: 10, duration: Number(args.duration), warmup: 1 };

const database = await createBenchDatabase(
  args.db as Dialect,
  process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL,
);
const servers: BenchServer[] = [];
try {
  const seeded = await seed(database.url, {
    employees: Number(args.employees),
    groups: 200,
    bigGroupMembers: Number(args.members),
  });
  for (const [name, script] of [
    ['a', args.a],
    ['b', args.b],
  ] as const) {
    servers.push(
      await startProcess({
        args: [script],
        env: { NODE_ENV: 'production', DATABASE_URL: database.url, LOG_LEVEL: 'info' },
        readyPath: '/readyz',
        logFile: join(TMP, `compare-${name}.log`),
      }),
    );
  }
  const [a, b] = servers as [BenchServer, BenchServer];
  console.log(`A = ${args.a}\nB = ${args.b}\n`);
  // PostgreSQL's own CPU beside the server's (on SQLite the database is in the server's process).
  const postgres = args.db === 'postgres';
  const alsoCpuMs = postgres ? () => cpuMsOfCommand('postgres') : undefined;
  const dbColumns = postgres ? ' A database CPU µs/req | B database CPU µs/req | B/A |' : '';
  console.log(
    `| endpoint | A req/s | B req/s | A server CPU µs/req | B server CPU µs/req | B/A CPU | A p50 | B p50 |${dbColumns}`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|${postgres ? '---:|---:|---:|' : ''}`);
  for (const scenario of loadScenarios(seeded, args.db as Dialect).filter((s) => only.has(s.id))) {
    const runs: { a: Awaited<ReturnType<typeof runLoad>>[]; b: Awaited<ReturnType<typeof runLoad>>[] } = {
      a: [],
      b: [],
    };
    for (let i = 0; i < rounds; i++) {
      runs.a.push(await runLoad({ ...scenario.spec, pid: a.pid, baseUrl: a.baseUrl, alsoCpuMs }, load));
      runs.b.push(await runLoad({ ...scenario.spec, pid: b.pid, baseUrl: b.baseUrl, alsoCpuMs }, load));
    }
    const m = (list: typeof runs.a, pick: (r: (typeof runs.a)[number]) => number) => median(list.map(pick));
    const cpuA = m(runs.a, (r) => r.cpuMsPerRequest * 1000);
    const cpuB = m(runs.b, (r) => r.cpuMsPerRequest * 1000);
    const bad = [...runs.a, ...runs.b].reduce((n, r) => n + r.bad, 0);
    const dbA = m(runs.a, (r) => r.alsoCpuMsPerRequest * 1000);
    const dbB = m(runs.b, (r) => r.alsoCpuMsPerRequest * 1000);
    const db = postgres ? ` ${dbA.toFixed(0)} | ${dbB.toFixed(0)} | ${(dbB / dbA).toFixed(2)} |` : '';
    console.log(
      `| ${scenario.spec.label}${bad ? ` (**${bad} bad**)` : ''} | ${m(runs.a, (r) => r.reqPerSec).toFixed(0)} | ${m(runs.b, (r) => r.reqPerSec).toFixed(0)} | ${cpuA.toFixed(0)} | ${cpuB.toFixed(0)} | ${(cpuB / cpuA).toFixed(2)} | ${m(runs.a, (r) => r.p50)} | ${m(runs.b, (r) => r.p50)} |${db}`,
    );
  }
  if (only.has('put')) {
    const times = { a: [] as number[][], b: [] as number[][] };
    for (let i = 0; i < rounds; i++) {
      for (const [name, server] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const result = await timeReplacements({
          baseUrl: server.baseUrl,
          pid: server.pid,
          key: seeded.keys.replace,
          groupId: seeded.replaceGroupId,
          employeeIds: seeded.employeeIds,
          runs: Number(args['put-runs']),
        });
        times[name].push(result.series.map((s) => median(s.ms)));
        if (result.series.some((s) => s.bad > 0)) console.log(`${name}: bad PUT answers`);
      }
    }
    const labels = ['PUT into empty', 'PUT same again', 'PUT []'];
    for (const [i, label] of labels.entries()) {
      const pick = (list: number[][]) => median(list.map((row) => row[i] as number)).toFixed(0);
      console.log(`| ${label} (median ms) | ${pick(times.a)} | ${pick(times.b)} | | | | | |`);
    }
  }
} finally {
  for (const server of servers) await server.stop();
  await database.drop();
}
