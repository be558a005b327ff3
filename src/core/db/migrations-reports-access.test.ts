import { describe, expect, it } from 'vitest';
import { accountBefore, migratingDatabase } from '../../../test/helpers/migrations.js';

// Migration 0016 on keys made before it: a key that could report (it held campaigns:write) can
// still report, with the access point of its own; no other key gains anything.

const { database: opened, migrateTo } = migratingDatabase();

describe('migration 0016 (the reports access point) on existing keys', () => {
  it('grants reports:write to the keys holding campaigns:write, and to no other; down takes it back', async () => {
    await migrateTo('0015_tracking_settle');
    const db = opened().db;
    const now = Date.now();
    const account = { id: await accountBefore(db) };
    const held = {
      button: ['campaigns:write'],
      sync: ['employees:read', 'employees:write', 'groups:read', 'groups:write'],
      reader: ['campaigns:read'],
      everything: [
        'employees:read',
        'employees:write',
        'groups:read',
        'groups:write',
        'campaigns:read',
        'campaigns:write',
      ],
    };
    for (const [name, permissions] of Object.entries(held)) {
      await db
        .insertInto('api_keys')
        .values({
          account_id: account.id,
          name,
          prefix: `p_${name}`,
          secret_hash: `h_${name}`,
          permissions: JSON.stringify(permissions),
          rate_limit: 600,
          created_at: now,
        })
        .execute();
    }
    const permissionsByName = async () =>
      Object.fromEntries(
        (await db.selectFrom('api_keys').select(['name', 'permissions']).execute()).map((k) => [
          k.name,
          JSON.parse(k.permissions) as string[],
        ]),
      );

    await migrateTo('0016_reports_access_point');
    expect(await permissionsByName()).toEqual({
      button: ['campaigns:write', 'reports:write'],
      sync: held.sync,
      reader: held.reader,
      everything: [...held.everything, 'reports:write'],
    });

    await migrateTo('0015_tracking_settle');
    expect(await permissionsByName()).toEqual(held);
  });
});
