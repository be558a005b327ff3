import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { makeAccount, makeGroup } from '../../test/helpers/factories.js';
import { AppError } from './errors.js';
import { emit, subscribe, subscribersOf, watch, watchEvents } from './events.js';

// The event bus: subscribers run inside the emitting transaction, in the order they were
// subscribed (src/subscriptions.ts), and a subscriber that throws aborts the change.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

describe('domain events', () => {
  it('loads every subscription once, in the order subscriptions.ts lists them', () => {
    expect(subscribersOf('group.deleting')).toEqual([
      'training.keep-targeted-groups',
      'phishing.keep-targeted-groups',
    ]);
    expect(subscribersOf('employee.deleting')).toEqual([
      'training.keep-enrollments',
      'phishing.keep-recipients',
      'phishing.forget-reporter',
      'phishing.forget-test-sends',
      'webhooks',
    ]);
    expect(subscribersOf('group.deleted')).toEqual(['sync.tombstone', 'webhooks']);
    subscribe('group.deleted', 'sync.tombstone', async () => {
      throw new Error('a second subscription of one name is ignored');
    });
    expect(subscribersOf('group.deleted')).toEqual(['sync.tombstone', 'webhooks']);
  });

  it('runs subscribers in order inside the transaction, and a throw rolls the change back', async () => {
    const account = await makeAccount(t.app);
    const group = await makeGroup(t.app, account.id, 'Kept');
    const seen: string[] = [];
    subscribe('group.updated', 'test.first', async () => {
      seen.push('first');
    });
    subscribe('group.updated', 'test.refuse', async (trx, { group: changed }) => {
      seen.push('refuse');
      // The change is visible to the subscriber: it runs in the emitting transaction.
      const row = await trx
        .selectFrom('groups')
        .select('name')
        .where('id', '=', changed.id)
        .executeTakeFirst();
      if (row?.name === 'Refused') throw new AppError('group_in_use');
    });
    const rename = (name: string) =>
      t.app.db.transaction().execute(async (trx) => {
        await trx.updateTable('groups').set({ name }).where('id', '=', group.id).execute();
        await emit(trx, 'group.updated', { accountId: account.id, group: { ...group, name } });
      });
    await expect(rename('Refused')).rejects.toMatchObject({ code: 'group_in_use' });
    expect(seen).toEqual(['first', 'refuse']);
    const kept = await t.app.db
      .selectFrom('groups')
      .select('name')
      .where('id', '=', group.id)
      .executeTakeFirstOrThrow();
    expect(kept.name).toBe('Kept');
  });

  it('watch gives nothing when no subscriber wants the event, so the owner may skip its work', async () => {
    const account = await makeAccount(t.app);
    const group = await makeGroup(t.app, account.id);
    // No endpoint and no campaign enrolling newcomers: nobody wants either event.
    expect(
      await watch(t.app.db, 'group.members_added', { accountId: account.id, groupId: group.id }),
    ).toBeUndefined();
    expect(
      await watch(t.app.db, 'group.membership_changed', { accountId: account.id, groupId: group.id }),
    ).toBeUndefined();
    watchEvents('group.members_added', 'test.wants', async () => async () => {});
    expect(
      await watch(t.app.db, 'group.members_added', { accountId: account.id, groupId: group.id }),
    ).toBeTypeOf('function');
  });
});
