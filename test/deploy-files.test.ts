import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { loadConfig } from '../src/core/config.js';
import {
  type ComposeService,
  healthcheckCommand,
  type Instruction,
  instructionsOf,
  interpolate,
  NO_DOCKER_INSTRUCTIONS,
  ROOT,
  readCompose,
  readDockerfile,
  type Stage,
  stageEnv,
} from './helpers/deploy-files.js';

// The Dockerfile, .dockerignore and compose.yaml, read by real parsers. Nothing here runs Docker:
// .ci/production-build.ts carries out the same Dockerfile's steps on this machine and starts
// the result.

const stages = readDockerfile();
const build = stages.find((s) => s.name === 'build')!;
const runtime = stages.at(-1)!;
const compose = readCompose();
const vigilServices = ['api-1', 'api-2', 'worker'] as const;
const apiServices = ['api-1', 'api-2'] as const;

/** The server's own source files (src/, tests left out), with their text. */
function serverSources(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return serverSources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** Every environment variable the server and the `vigil` command read, from their sources. */
function variablesTheServerReads(): Set<string> {
  const names = new Set<string>();
  for (const source of serverSources()) {
    // env.NAME, env['NAME'], and helpers called as integer(env, 'NAME', …)
    for (const m of source.matchAll(
      /\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\]|,\s*'([A-Z][A-Z0-9_]*)')/g,
    )) {
      names.add((m[1] ?? m[2] ?? m[3])!);
    }
  }
  return names;
}

function runsCommand(stage: Stage, pattern: RegExp): Instruction[] {
  return instructionsOf(stage, 'RUN').filter((i) => pattern.test(i.text));
}

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no service ${name}`);
  return found;
}

/** A service's environment as the container would get it, with the given .env variables. */
function environmentOf(name: string, vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service(name).environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]),
  );
}

const dotEnv = { POSTGRES_PASSWORD: 'f00dcafe', SESSION_SECRET: 'a'.repeat(64) };

describe('Dockerfile', () => {
  it('builds in a build stage and runs from a smaller stage on the same Node.js and Debian', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const [buildImage, runtimeImage] = [build.image, runtime.image].map((i) => /^node:(\d+)-(\w+)/.exec(i));
    expect(buildImage?.[1]).toBe(runtimeImage?.[1]);
    expect(buildImage?.[2]).toBe(runtimeImage?.[2]);
    // better-sqlite3 is compiled in the build stage and loaded in the runtime stage.
    expect(runtime.image).toMatch(/-slim$/);
    const engines = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node as string;
    expect(Number(runtimeImage?.[1])).toBeGreaterThanOrEqual(Number(/\d+/.exec(engines)?.[0]));
  });

  it('installs every dependency, builds, then keeps only the production ones', () => {
    const texts = instructionsOf(build, 'RUN').map((i) => i.text);
    const ci = texts.findIndex((t) => /^npm ci\b/.test(t));
    const buildStep = texts.indexOf('npm run build');
    const prune = texts.findIndex((t) => /^npm prune --omit=dev\b/.test(t));
    expect(texts[ci]).not.toMatch(/--omit|--production|--ignore-scripts/);
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(buildStep).toBeGreaterThan(ci);
    expect(prune).toBeGreaterThan(buildStep);
    expect(texts[prune + 1]).toMatch(
      /^npm uninstall --no-save --omit=dev .*\$\(node scripts\/build-only-dependencies\.mjs\)$/,
    );
    // The lockfile alone is copied before `npm ci`, so that layer outlives source changes.
    const copies = instructionsOf(build, 'COPY').map((i) => i.args);
    expect(copies[0]).toEqual(['package.json', 'package-lock.json', './']);
  });

  it('leaves out of the image the dependencies bundled into dist/, and keeps those loaded from node_modules', () => {
    // Needs dist/: `npm test` builds it first. The build bundles the server and `vigil`
    // (scripts/build-server.mjs) less the packages that load files of their own at run time.
    const buildOnly = execFileSync('node', ['scripts/build-only-dependencies.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .trim()
      .split(' ');
    expect(buildOnly).toEqual(
      expect.arrayContaining(['typescript', 'esbuild', 'react', '@types/node', 'fastify', 'kysely']),
    );
    for (const loadedAtRunTime of ['better-sqlite3', 'piscina', '@fastify/swagger-ui']) {
      expect(buildOnly).not.toContain(loadedAtRunTime);
    }
  });

  it('installs nothing in the runtime stage: it copies the pruned dependencies and the build', () => {
    expect(runsCommand(runtime, /\b(npm|npx|yarn|pnpm)\b/)).toEqual([]);
    const copied = instructionsOf(runtime, 'COPY').flatMap((i) => {
      expect(i.flags.from).toBe('build');
      return i.args.slice(0, -1);
    });
    // What the server reads at run time: its code, the web interface inside dist/, the built-in
    // courses, the `vigil` command (the worker service), and package.json ("type": "module").
    expect(copied).toEqual(
      expect.arrayContaining([
        '/app/package.json',
        '/app/node_modules',
        '/app/dist',
        '/app/bin',
        '/app/content',
      ]),
    );
    expect(copied.some((p) => /\/(src|web|test)$/.test(p))).toBe(false);
  });

  it('runs as a user other than root, in production mode, listening on every interface of the container', () => {
    const users = instructionsOf(runtime, 'USER').map((i) => i.text);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const env = stageEnv(runtime);
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    expect(instructionsOf(runtime, 'EXPOSE').map((i) => i.text)).toEqual([env.PORT ?? '8080']);
  });

  it('starts the server with node dist/server.js', () => {
    expect(instructionsOf(runtime, 'ENTRYPOINT')).toEqual([]);
    expect(instructionsOf(runtime, 'CMD').map((i) => i.exec)).toEqual([['node', 'dist/server.js']]);
    expect(existsSync(join(ROOT, 'src/server.ts'))).toBe(true);
  });

  it('checks health with GET /healthz on the port the server listens on', () => {
    const [healthcheck] = instructionsOf(runtime, 'HEALTHCHECK');
    const command = healthcheck ? healthcheckCommand(healthcheck) : undefined;
    expect(command?.[0]).toBe('node');
    expect(command?.join(' ')).toMatch(/127\.0\.0\.1:' \+ \(process\.env\.PORT \|\| 8080\) \+ '\/healthz'/);
    expect(healthcheck?.flags.timeout).toMatch(/^\d+s$/);
  });

  it('sets only variables that the server reads, besides NODE_ENV', () => {
    const reads = variablesTheServerReads();
    expect(reads).toContain('DATABASE_URL'); // the scan itself works
    const set = Object.keys(stageEnv(runtime)).filter((name) => name !== 'NODE_ENV');
    expect(set.filter((name) => !reads.has(name))).toEqual([]);
    expect(() => loadConfig(stageEnv(runtime))).not.toThrow();
  });

  it('uses only instructions that the no-Docker build (.ci/production-build.ts) carries out', () => {
    const used = stages.flatMap((s) => s.instructions.map((i) => i.keyword));
    expect(used.filter((k) => !NO_DOCKER_INSTRUCTIONS.includes(k))).toEqual([]);
  });
});

describe('.dockerignore', () => {
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('leaves out installed and built files, local data and secrets', () => {
    expect(patterns).toEqual(expect.arrayContaining(['.git', 'node_modules', 'dist', 'data', '.env']));
  });

  // .ci/production-build.ts takes `git archive HEAD` as the build context.
  it.skipIf(!existsSync(join(ROOT, '.git')))(
    'leaves out nothing git tracks: a clean checkout is the context',
    () => {
      const ignored = execFileSync(
        'git',
        ['ls-files', '--cached', '--ignored', '--exclude-from=.dockerignore'],
        {
          cwd: ROOT,
          encoding: 'utf8',
        },
      );
      expect(ignored.split('\n').filter(Boolean)).toEqual([]);
    },
  );
});

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, two API instances and a worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api-1', 'api-2', 'postgres', 'redis', 'worker']);
    expect(service('postgres').image).toBe('postgres:16');
    expect(service('redis').image).toBe('redis:7');
  });

  it('keeps PostgreSQL in a named volume and checks that both stores answer', () => {
    const postgres = service('postgres');
    const [volume] = (postgres.volumes ?? []).map((v) => v.split(':'));
    expect(volume?.[1]).toBe('/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes ?? {})).toContain(volume?.[0]);
    expect(postgres.healthcheck?.test?.join(' ')).toMatch(/pg_isready/);
    expect(service('redis').healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('runs the API instances and the worker from the image the Dockerfile builds', () => {
    for (const name of vigilServices) {
      expect(service(name).build, name).toBe('.');
      expect(service(name).image, name).toBe(service('api-1').image);
    }
    expect(service('api-1').command).toBeUndefined(); // the image's CMD: node dist/server.js
    expect(service('api-2').command).toBeUndefined();
  });

  it('starts them once their stores are healthy', () => {
    for (const name of apiServices) {
      expect(service(name).depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(service('worker').depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('points the API instances at the compose services, without workers, with the same secret', () => {
    for (const name of apiServices) {
      const env = environmentOf(name, dotEnv);
      expect(new URL(env.DATABASE_URL!).host, name).toBe('postgres:5432');
      expect(new URL(env.REDIS_URL!).host, name).toBe('redis:6379');
      const config = loadConfig(env);
      expect(config.workers.enabled, name).toBe(false);
      expect(config.admin.cookieSecret, name).toBe(dotEnv.SESSION_SECRET);
      expect(config.publicUrl, name).toBe(loadConfig(environmentOf('worker', dotEnv)).publicUrl);
    }
    // Without SESSION_SECRET both still share one: generated once and kept in the database.
    expect(loadConfig(environmentOf('api-1', { POSTGRES_PASSWORD: 'x' })).admin.cookieSecret).toBeUndefined();
  });

  it('publishes each API instance on its own host port, to the port the image listens on', () => {
    const ports = apiServices.map((name) => service(name).ports?.[0]?.split(':'));
    expect(ports.map((p) => p?.at(-1))).toEqual(['8080', '8080']);
    expect(new Set(ports.map((p) => p?.at(-2))).size).toBe(2);
  });

  it('runs the worker as `vigil worker` on the same database, with no HTTP health check', async () => {
    const worker = service('worker');
    expect(worker.command).toEqual(['node', 'bin/vigil.js', 'worker']);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.vigil).toBe('bin/vigil.js');
    let help = '';
    const io = { stdout: (s: string) => (help += s), stderr: (s: string) => (help += s), env: {} };
    expect(await main(['worker', '--help'], io)).toBe(0);
    expect(help).toMatch(/background work/);
    expect(worker.healthcheck).toEqual({ disable: true });
    expect(environmentOf('worker', dotEnv).DATABASE_URL).toBe(environmentOf('api-1', dotEnv).DATABASE_URL);
  });

  it('sets only variables that the server reads, with values it accepts', () => {
    const reads = variablesTheServerReads();
    for (const name of vigilServices) {
      const env = environmentOf(name, dotEnv);
      expect(
        Object.keys(env).filter((v) => !reads.has(v)),
        name,
      ).toEqual([]);
      expect(() => loadConfig(env), name).not.toThrow();
    }
  });

  it('requires the database password instead of defaulting it', () => {
    expect(() => environmentOf('api-1', {})).toThrow(/POSTGRES_PASSWORD/);
    expect(() => environmentOf('postgres', {})).toThrow(/POSTGRES_PASSWORD/);
  });

  it('gives the server longer than its 30 s drain to stop', () => {
    for (const name of vigilServices) {
      expect(Number(/^(\d+)s$/.exec(service(name).stop_grace_period ?? '')?.[1]), name).toBeGreaterThan(30);
    }
  });
});
