import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.js';
import { caseTitle, notApplicable, runCase } from './helpers/isolation-matrix/cases.js';
import { EXEMPT } from './helpers/isolation-matrix/exempt.js';
import { CASES } from './helpers/isolation-matrix/matrix.js';
import {
  accountWide,
  roleClients,
  roleRows,
  runRoleCases,
  runScopedCase,
  scopedClient,
} from './helpers/isolation-matrix/roles.js';
import { ROWS } from './helpers/isolation-matrix/rows.js';
import { makeWorld, type World } from './helpers/isolation-matrix/world.js';

/**
 * Every route the app registers (Fastify's onRoute) has its row in the isolation matrix, for
 * the Customer API and the admin API alike: 401 without credentials → another account's object
 * or account answers exactly as a nonexistent one and stays as it was → one invalid input is a
 * 400 that changes nothing → the normal call succeeds. Routes that hold no account's data are
 * exempt, with a reason (helpers/isolation-matrix/exempt.ts). A new route fails this file until
 * it is classified, so none ships without its isolation test.
 */

/** `METHOD /path` of every route; a HEAD that Fastify adds beside a GET is tested as that GET. */
function routeKeys(registered: string[]): string[] {
  const all = new Set(registered);
  return [...all].filter((key) => !(key.startsWith('HEAD ') && all.has(`GET ${key.slice(5)}`))).sort();
}

const registered: string[] = [];
/** The permission each route declares (`config.adminPermission`), by `METHOD /path`. */
const permissions = new Map<string, string | undefined>();
/** What each route declares of its scope (`config.adminScope`), by `METHOD /path`. */
const scopes = new Map<string, string | undefined>();
let w: World;
let roles: Awaited<ReturnType<typeof roleClients>>;
let scoped: Awaited<ReturnType<typeof scopedClient>>;
/** The role rows' own two accounts: their calls use up no limit of the other rows' accounts. */
let roleWorld: World;
beforeAll(async () => {
  const { app } = await buildTestApp(
    // Every route the app can have: /metrics exists only with a token. Sign-ins all come from
    // one address here, more than its default budget allows.
    {
      METRICS_TOKEN: 'isolation-matrix-metrics-token',
      SIGN_IN_LIMIT_PER_ADDRESS: '10000',
      REPORT_DOMAIN: 'reports.example.com',
    },
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          registered.push(`${method} ${route.url}`);
          permissions.set(`${method} ${route.url}`, route.config?.adminPermission);
          scopes.set(`${method} ${route.url}`, route.config?.adminScope);
        }
      },
    },
  );
  w = await makeWorld(app);
  roleWorld = await makeWorld(app);
  roles = await roleClients(roleWorld);
  scoped = await scopedClient(roleWorld);
});

describe('the isolation matrix covers every registered route', () => {
  it('finds the routes of both APIs (the onRoute hook sees them all)', () => {
    const keys = routeKeys(registered);
    expect(keys.filter((k) => k.includes(' /api/api_gateway/customer/')).length).toBeGreaterThan(0);
    expect(keys.filter((k) => k.includes(' /admin/api/accounts/:accountId')).length).toBeGreaterThan(0);
  });

  it('has a row or an exemption for every route, and none for a route that is gone', () => {
    const keys = routeKeys(registered);
    const classified = [...ROWS.map((r) => r.route), ...Object.keys(EXEMPT)];
    expect({
      'routes without a row (add one to test/helpers/isolation-matrix/)': keys.filter(
        (k) => !classified.includes(k),
      ),
      'rows for no route': classified.filter((k) => !keys.includes(k)),
      'rows given twice': classified.filter((k, i) => classified.indexOf(k) !== i),
    }).toEqual({
      'routes without a row (add one to test/helpers/isolation-matrix/)': [],
      'rows for no route': [],
      'rows given twice': [],
    });
  });

  it('exempts no route of the Customer API or of an account in the admin API', () => {
    const tenant = /^\S+ (\/api\/api_gateway\/customer\/|\/admin\/api\/accounts\/)/;
    expect(Object.keys(EXEMPT).filter((k) => tenant.test(k))).toEqual([]);
  });
});

describe.each(ROWS.map((r) => [r.route, r] as const))('%s', (_route, r) => {
  for (const name of CASES) {
    const reason = notApplicable(r, name);
    if (reason) it.skip(`→ ${name}: n/a, ${reason}`, () => {});
    else it(`→ ${caseTitle(r, name)}`, () => runCase(w, r, name));
  }
});

describe('every role on every admin route of an account (helpers/isolation-matrix/roles.ts)', () => {
  it.each(roleRows(ROWS).map((r) => [r.route, r] as const))(
    "%s → each role: the normal answer when it holds the route's permission, else 403",
    (_route, r) => runRoleCases(roleWorld, r, roles, permissions.get(r.route)),
  );
});

describe('a role limited to groups on every admin route that acts on the whole account (docs/roles.md)', () => {
  // The routes' declarations are read as they register (beforeAll): one test walks them all.
  it('gets 403 scope_too_narrow that changes nothing: keys, SCIM tokens, webhooks, settings, SSO, the audit log…', async () => {
    const wide = roleRows(ROWS).filter((r) => accountWide(permissions.get(r.route), scopes.get(r.route)));
    for (const path of ['/keys', '/scim-tokens', '/webhooks/endpoints', '/settings', '/sso', '/audit-log']) {
      expect(
        wide.some((r) => r.route.includes(`/admin/api/accounts/:accountId${path}`)),
        path,
      ).toBe(true);
    }
    for (const r of wide) {
      await runScopedCase(roleWorld, r, scoped).catch((err: Error) => {
        throw new Error(`${r.route}: ${err.message}`);
      });
    }
  });
});
