import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.js';
import { adminAccessRows } from './helpers/isolation-matrix/admin-access-rows.js';
import { adminCampaignRows } from './helpers/isolation-matrix/admin-campaign-rows.js';
import { adminContentRows } from './helpers/isolation-matrix/admin-content-rows.js';
import { adminDataRows } from './helpers/isolation-matrix/admin-data-rows.js';
import { adminMfaRows } from './helpers/isolation-matrix/admin-mfa-rows.js';
import { adminPhishingCampaignRows } from './helpers/isolation-matrix/admin-phishing-campaign-rows.js';
import { adminPhishingDeliveryRows } from './helpers/isolation-matrix/admin-phishing-delivery-rows.js';
import { adminPhishingEventRows } from './helpers/isolation-matrix/admin-phishing-event-rows.js';
import { adminPhishingResultsRows } from './helpers/isolation-matrix/admin-phishing-results-rows.js';
import { adminPhishingTemplateRows } from './helpers/isolation-matrix/admin-phishing-template-rows.js';
import { adminReportingRows } from './helpers/isolation-matrix/admin-reporting-rows.js';
import { adminSessionRows } from './helpers/isolation-matrix/admin-session-rows.js';
import { adminSettingsRows } from './helpers/isolation-matrix/admin-settings-rows.js';
import { adminTriageRows } from './helpers/isolation-matrix/admin-triage-rows.js';
import { caseTitle, notApplicable, runCase } from './helpers/isolation-matrix/cases.js';
import { customerPhishingReportRows } from './helpers/isolation-matrix/customer-phishing-report-rows.js';
import { customerPhishingRows } from './helpers/isolation-matrix/customer-phishing-rows.js';
import { customerReportRows } from './helpers/isolation-matrix/customer-report-rows.js';
import { customerRows } from './helpers/isolation-matrix/customer-rows.js';
import { EXEMPT } from './helpers/isolation-matrix/exempt.js';
import { CASES } from './helpers/isolation-matrix/matrix.js';
import { scimRows } from './helpers/isolation-matrix/scim-rows.js';
import { webhookRows } from './helpers/isolation-matrix/webhook-rows.js';
import { makeWorld, type World } from './helpers/isolation-matrix/world.js';

/**
 * Every route the app registers (Fastify's onRoute) has its row in the isolation matrix, for
 * the Customer API and the admin API alike: 401 without credentials → another account's object
 * or account answers exactly as a nonexistent one and stays as it was → one invalid input is a
 * 400 that changes nothing → the normal call succeeds. Routes that hold no account's data are
 * exempt, with a reason (helpers/isolation-matrix/exempt.ts). A new route fails this file until
 * it is classified, so none ships without its isolation test.
 */

const ROWS = [
  ...customerRows,
  ...customerPhishingReportRows,
  ...adminAccessRows,
  ...adminSessionRows,
  ...adminMfaRows,
  ...adminSettingsRows,
  ...adminDataRows,
  ...adminContentRows,
  ...adminCampaignRows,
  ...adminPhishingTemplateRows,
  ...customerPhishingRows,
  ...adminPhishingResultsRows,
  ...adminPhishingEventRows,
  ...adminPhishingCampaignRows,
  ...adminPhishingDeliveryRows,
  ...customerReportRows,
  ...adminTriageRows,
  ...scimRows,
  ...webhookRows,
  ...adminReportingRows,
];

/** `METHOD /path` of every route; a HEAD that Fastify adds beside a GET is tested as that GET. */
function routeKeys(registered: string[]): string[] {
  const all = new Set(registered);
  return [...all].filter((key) => !(key.startsWith('HEAD ') && all.has(`GET ${key.slice(5)}`))).sort();
}

const registered: string[] = [];
let w: World;
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
        for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
      },
    },
  );
  w = await makeWorld(app);
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
