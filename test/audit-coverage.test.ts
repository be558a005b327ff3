import { beforeAll, describe, expect, it } from 'vitest';
import { settleAuditLog } from '../src/core/audit/audit.js';
import { buildTestApp } from './helpers/app.js';
import { type Actor, methodOf, type Row, send } from './helpers/isolation-matrix/matrix.js';
import { ROWS } from './helpers/isolation-matrix/rows.js';
import { makeWorld, type World } from './helpers/isolation-matrix/world.js';

/**
 * The audit log's coverage: every state-changing route of the admin API, the Customer API and
 * SCIM (the isolation matrix's rows, which cover every route the app registers) adds at least
 * one audit row naming the right kind of actor when its normal call succeeds. A route whose
 * success is no administrator's change (a preview, an employee's report) is listed with a reason.
 */

const KIND: Record<Exclude<Actor, 'anyone'>, string> = {
  admin: 'admin',
  operator: 'operator',
  key: 'api_key',
  scim: 'scim_token',
};

/** Routes open to anyone whose success is still someone's recorded act. */
const PUBLIC_ACTS: Record<string, string> = {
  'POST /admin/api/session': 'admin',
  'POST /admin/api/invitations/:token/accept': 'admin',
};

/** Non-GET routes whose success is not an administrator's change, with the reason. */
const NOT_RECORDED: Record<string, string> = {
  'POST /admin/api/accounts/:accountId/phishing/templates/preview': 'renders a template: changes nothing',
  'POST /api/api_gateway/customer/reports/':
    "an employee's report, sent by the report button's key: employees' acts are not administrators' changes",
  'POST /api/api_gateway/customer/campaigns/phishing/reports/':
    "an employee's report of a simulation, sent by the report button's key: not an administrator's change",
  'POST /admin/api/session/mfa/passkey-options':
    'a one-time challenge for the second step of sign-in: the step itself is recorded (admin.mfa_verified or its failure)',
  'POST /admin/api/mfa/passkeys/options':
    'a one-time registration challenge: the passkey it registers is recorded (POST /mfa/passkeys)',
  'POST /admin/api/mfa/totp':
    'starts an enrolment: an unconfirmed secret that works only once confirmed, and the confirmation is recorded (POST /mfa/totp/confirm)',
  'POST /admin/api/session/mfa/enrolled':
    'the matrix calls it on a full session, which it leaves as it is; on a session that had to enrol it starts a full one, recorded as admin.signed_in (mfa.test.ts)',
  'PUT /admin/api/accounts/:accountId/security/mfa':
    'the matrix sets the value the account has (requiring MFA would send its other administrators to enrolment); a change is recorded as security_settings.updated (mfa.test.ts)',
};

const changing = (r: Row) =>
  methodOf(r) !== 'GET' && !(r.route in NOT_RECORDED) && (r.as !== 'anyone' || r.route in PUBLIC_ACTS);

let w: World;
beforeAll(async () => {
  const { app } = await buildTestApp({
    SIGN_IN_LIMIT_PER_ADDRESS: '10000',
    REPORT_DOMAIN: 'reports.example.com',
  });
  w = await makeWorld(app);
});

async function lastId(): Promise<number> {
  // As a reader of the log does: SQLite's journal moved into the chains first.
  await settleAuditLog(w.app.db);
  const row = await w.app.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

describe('every change through the admin API, the Customer API and SCIM is in the audit log', () => {
  it('walks the state-changing routes', () => {
    expect(ROWS.filter(changing).length).toBeGreaterThan(50);
  });

  describe.each(ROWS.filter(changing).map((r) => [r.route, r] as const))('%s', (_route, r) => {
    it('records its success with the actor', async () => {
      const obj = await r.object?.(w, w.a, 'success');
      const before = await lastId();
      const res = await send(w, r, r.call(w.a, obj), { actor: r.as, side: w.a });
      expect(res.statusCode, res.body).toBe(r.success.status);
      await settleAuditLog(w.app.db);
      const rows = await w.app.db
        .selectFrom('audit_log')
        .select(['actor_kind', 'action', 'account_id'])
        .where('id', '>', before)
        .execute();
      const kind = r.as === 'anyone' ? PUBLIC_ACTS[r.route] : KIND[r.as];
      expect(
        rows.map((row) => row.actor_kind),
        JSON.stringify(rows),
      ).toContain(kind);
    });
  });
});
