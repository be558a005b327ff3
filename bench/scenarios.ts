import { randomBytes } from 'node:crypto';
import type { Dialect } from '../src/core/db/database.js';
import type { LoadResult, LoadSpec } from './load.js';
import { CLUSTER_SPEEDUP, TARGETS } from './report.js';
import type { Seeded } from './seed.js';

export const API = '/api/api_gateway/customer';

export const SCENARIOS = ['groups', 'email', 'create', 'detail', 'put'] as const;
export type ScenarioId = (typeof SCENARIOS)[number];

export interface Target {
  text: string;
  met: (result: LoadResult, ratioToBaseline: number) => boolean;
}

export interface Scenario {
  id: ScenarioId;
  spec: Omit<LoadSpec, 'pid' | 'baseUrl'>;
  target?: Target;
}

export const baselineSpec = (label: string): Omit<LoadSpec, 'pid' | 'baseUrl'> => ({
  label: `hello world (bare Fastify), ${label}`,
  expectedStatus: 200,
  request: { method: 'GET', path: '/' },
});

const ratio = (min: number): Target => ({
  text: `≥ ${Math.round(min * 100)} % of baseline`,
  met: (_r, x) => x >= min,
});

/** The loaded endpoints, in the order they run (the 100,000-id PUT is timed separately). */
export function loadScenarios(seeded: Seeded, dialect: Dialect): Scenario[] {
  const targets = TARGETS[dialect];
  const emails = seeded.employeeEmails;
  let lookups = 0;
  let creates = 0;
  const tag = randomBytes(4).toString('hex');
  const detailPath = `${API}/groups/${seeded.bigGroupId}/`;
  const members = seeded.bigGroupSize.toLocaleString('en');
  return [
    {
      id: 'groups',
      spec: {
        label: 'GET /customer/groups/',
        expectedStatus: 200,
        request: { method: 'GET', path: `${API}/groups/`, headers: { apikey: seeded.keys.groups } },
      },
      target: ratio(targets.groups),
    },
    {
      id: 'email',
      spec: {
        label: 'GET /customer/employees/?email=',
        expectedStatus: 200,
        request: {
          method: 'GET',
          headers: { apikey: seeded.keys.email },
          // A different employee each time, spread over the whole table.
          setupRequest: (req) => ({
            ...req,
            path: `${API}/employees/?email=${encodeURIComponent(emails[(lookups++ * 7919) % emails.length] as string)}`,
          }),
        },
      },
      target: ratio(targets.email),
    },
    {
      id: 'create',
      spec: {
        label: 'POST /customer/employees/',
        expectedStatus: 201,
        request: {
          method: 'POST',
          path: `${API}/employees/`,
          headers: { apikey: seeded.keys.create, 'content-type': 'application/json' },
          // Every request a new address: a duplicate would be a 409, not a create.
          setupRequest: (req) => {
            const n = creates++;
            const body = {
              first_name: 'New',
              last_name: `Hire ${n}`,
              email: `new.${tag}.${n}@bench.example.com`,
            };
            return { ...req, body: JSON.stringify(body) };
          },
        },
      },
      target: ratio(targets.create),
    },
    {
      id: 'detail',
      spec: {
        label: `GET group of ${members} members`,
        expectedStatus: 200,
        request: { method: 'GET', path: detailPath, headers: { apikey: seeded.keys.detail } },
      },
    },
    {
      id: 'detail',
      spec: {
        label: `GET group of ${members} members, one client`,
        expectedStatus: 200,
        connections: 1,
        request: { method: 'GET', path: detailPath, headers: { apikey: seeded.keys.detail } },
      },
      target: {
        text: `p50 ≤ ${targets.detailP50Ms} ms`,
        met: (r) => r.p50 <= targets.detailP50Ms,
      },
    },
  ];
}

/** More connections than the single-process rows: what a busy load balancer sends (see run.ts). */
export const CLUSTER_CONNECTIONS = 50;

/**
 * The same three list/look-up/create loads on a server of WEB_CONCURRENCY=2 (labels say so), and
 * the email look-up at CLUSTER_CONNECTIONS connections on both servers: `single` is that row on
 * the single process (measured first), the target of the two-process one is a speed-up over it.
 */
export function clusterScenarios(scenarios: Scenario[]): { single?: Scenario; cluster: Scenario[] } {
  const email = scenarios.find((s) => s.id === 'email');
  const cluster: Scenario[] = scenarios
    .filter((s) => s.id === 'groups' || s.id === 'email' || s.id === 'create')
    .map((s) => ({ id: s.id, spec: { ...s.spec, label: `${s.spec.label} — WEB_CONCURRENCY=2` } }));
  if (!email) return { cluster };
  const single: Scenario = {
    id: 'email',
    spec: { ...email.spec, label: `${email.spec.label} — one process`, connections: CLUSTER_CONNECTIONS },
  };
  cluster.push({
    id: 'email',
    spec: {
      ...email.spec,
      label: `${email.spec.label} — WEB_CONCURRENCY=2`,
      connections: CLUSTER_CONNECTIONS,
    },
  });
  return { single, cluster };
}

/** The target of the two-process email look-up at CLUSTER_CONNECTIONS: a speed-up over one process. */
export function speedUp(single: LoadResult): Target {
  return {
    text: `≥ ${CLUSTER_SPEEDUP}× one process (${Math.round(single.reqPerSec).toLocaleString('en')} req/s)`,
    met: (r) => r.reqPerSec >= CLUSTER_SPEEDUP * single.reqPerSec,
  };
}
