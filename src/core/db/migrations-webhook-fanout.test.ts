import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { accountBefore, migratingDatabase } from '../../../test/helpers/migrations.js';
import { fanOutWebhookEvents } from '../../workers/webhook-fanout.js';

// Migration 0014 on a database whose events already have their deliveries (written with them
// before it): they are not fanned out again, so an upgrade sends nothing twice.

const { database: opened, migrateTo } = migratingDatabase();

describe('migration 0014 on existing webhook events', () => {
  it('leaves the events stored before it fanned out, and goes down again', async () => {
    await migrateTo('0013_scim');
    const db = opened().db;
    const now = Date.now();
    const account = { id: await accountBefore(db) };
    const one = async (query: ReturnType<typeof sql<{ id: number }>>) =>
      Number((await query.execute(db)).rows[0]?.id);
    const endpoint = await one(sql`insert into webhook_endpoints
        (account_id, url, description, secret, created_at, updated_at)
        values (${account.id}, 'https://hooks.example.com/x', '', 'whsec_AAAA', ${now - 1000}, ${now - 1000})
        returning id`);
    const event = await one(sql`insert into webhook_events (account_id, message_id, type, payload, created_at)
        values (${account.id}, 'msg_before', 'group.created', '{}', ${now}) returning id`);
    await sql`insert into webhook_deliveries (account_id, endpoint_id, event_id, status, next_attempt_at, created_at)
        values (${account.id}, ${endpoint}, ${event}, 'succeeded', ${now}, ${now})`.execute(db);

    await migrateTo('0014_webhook_fanout');
    expect(await fanOutWebhookEvents(db, 100)).toEqual({ events: 0, deliveries: 0, full: false });
    expect(await db.selectFrom('webhook_deliveries').select(['event_id', 'status']).execute()).toEqual([
      { event_id: event, status: 'succeeded' },
    ]);

    await migrateTo('0013_scim');
    expect(await db.selectFrom('webhook_events').select('message_id').execute()).toEqual([
      { message_id: 'msg_before' },
    ]);
    await migrateTo('0014_webhook_fanout');
  });
});
