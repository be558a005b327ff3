import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { changeSecuritySettings, DEFAULT_SECURITY, securitySettingsOf } from './security.service.js';

// An account's sign-in and audit settings: defaults until changed, each change checked and audited.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

describe('account security settings', () => {
  it('are the defaults until changed, then what was set, with the change in the audit log', async () => {
    const account = await makeAccount(t.app);
    expect(await securitySettingsOf(t.app.db, account.id)).toEqual(DEFAULT_SECURITY);
    const changed = await t.app.db
      .transaction()
      .execute((trx) =>
        changeSecuritySettings(trx, account.id, { require_mfa: true, audit_retention_days: 365 }),
      );
    expect(changed).toEqual({ ...DEFAULT_SECURITY, require_mfa: true, audit_retention_days: 365 });
    expect(await securitySettingsOf(t.app.db, account.id)).toEqual(changed);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('account_id', '=', account.id)
      .execute();
    expect(audit).toEqual([
      {
        action: 'security_settings.updated',
        changes: JSON.stringify({
          require_mfa: { from: false, to: true },
          audit_retention_days: { from: 400, to: 365 },
        }),
      },
    ]);
  });

  it('refuses bad values, naming each field, and changes nothing', async () => {
    const account = await makeAccount(t.app);
    await expect(
      changeSecuritySettings(t.app.db, account.id, {
        require_mfa: 'yes',
        default_role: 'owner',
        audit_retention_days: 30,
      }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: {
        require_mfa: ['must be true or false'],
        default_role: ['cannot be owner: an owner is named by another owner'],
        audit_retention_days: ['must be between 180 and 3650 days'],
      },
    });
    expect(await securitySettingsOf(t.app.db, account.id)).toEqual(DEFAULT_SECURITY);
  });
});
