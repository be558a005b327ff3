import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectUnderTest } from '../../../test/helpers/database.js';
import { accountBefore, migratingDatabase } from '../../../test/helpers/migrations.js';

// Migrations 0006 and 0007 on a database that already holds data, as production's does: the
// search text of existing employees is filled in, and SQLite's enrollments table, rebuilt
// without its foreign key to employees, keeps every row, its children and its id sequence.

const { database: opened, migrateTo } = migratingDatabase();

describe('migrations 0006 and 0007 on existing data', () => {
  it('fill in the search text, keep enrollments with their progress and mail, and never reuse an enrollment id', async () => {
    await migrateTo('0005_mail_send_phase');
    const db = opened().db;
    const now = Date.now();
    const account = { id: await accountBefore(db) };
    const people = [
      ['Ayşe', 'Öztürk', 'Ayse@Example.com'],
      ['Émile', 'Zola', 'emile@example.fr'],
    ] as const;
    const employeeIds: number[] = [];
    for (const [first_name, last_name, email] of people) {
      const { rows } = await sql<{ id: number }>`insert into employees
          (account_id, first_name, last_name, email, email_normalized, created_at, updated_at)
          values (${account.id}, ${first_name}, ${last_name}, ${email}, ${email.toLowerCase()}, ${now}, ${now})
          returning id`.execute(db);
      employeeIds.push(Number(rows[0]?.id));
    }
    const campaign = await db
      .insertInto('training_campaigns')
      .values({ account_id: account.id, name: 'C', status: 'active', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const enroll = async (employeeId: number) => {
      const { rows } = await sql<{ id: number }>`insert into enrollments
          (account_id, campaign_id, employee_id, enrolled_at, started_at, completed_at, score)
          values (${account.id}, ${campaign.id}, ${employeeId}, ${now}, ${now}, ${now}, 80) returning id`.execute(
        db,
      );
      return Number(rows[0]?.id);
    };
    const kept = await enroll(employeeIds[0]!);
    const dropped = await enroll(employeeIds[1]!);
    await sql`insert into enrollment_courses (enrollment_id, course_key, attempts, best_score, started_at, updated_at)
        values (${kept}, 'phishing', 1, 80, ${now}, ${now})`.execute(db);
    await sql`insert into messages (account_id, campaign_id, enrollment_id, kind, status, next_attempt_at, created_at)
        values (${account.id}, ${campaign.id}, ${kept}, 'invitation', 'sent', ${now}, ${now})`.execute(db);
    // The newest enrollment goes before the migration: its id must not be given out again.
    await sql`delete from enrollments where id = ${dropped}`.execute(db);

    await migrateTo('0007_keep_training_history');

    const search = await db.selectFrom('employees').select(['id', 'search_text']).orderBy('id').execute();
    expect(search.map((e) => e.search_text)).toEqual([
      'ayse ozturk\nayse@example.com',
      'emile zola\nemile@example.fr',
    ]);
    const enrollments = await db.selectFrom('enrollments').selectAll().execute();
    expect(enrollments).toEqual([
      expect.objectContaining({
        id: kept,
        employee_id: employeeIds[0],
        score: 80,
        employee_deleted_at: null,
      }),
    ]);
    expect(await db.selectFrom('enrollment_courses').select('enrollment_id').execute()).toEqual([
      { enrollment_id: kept },
    ]);
    expect(await db.selectFrom('messages').select('enrollment_id').execute()).toEqual([
      { enrollment_id: kept },
    ]);
    const next = await db
      .insertInto('enrollments')
      .values({
        account_id: account.id,
        campaign_id: campaign.id,
        employee_id: employeeIds[1]!,
        enrolled_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(next.id)).toBeGreaterThan(dropped);

    // The employee can go without taking the enrollment along.
    await db.deleteFrom('employees').where('id', '=', employeeIds[0]!).execute();
    expect(await db.selectFrom('enrollments').select('id').where('id', '=', kept).execute()).toHaveLength(1);
    if (dialectUnderTest === 'sqlite') {
      // The rest of SQLite's foreign keys still hold: an enrollment's mail and progress go with it,
      // and an enrollment needs its campaign.
      await db.deleteFrom('enrollments').where('id', '=', kept).execute();
      expect(await db.selectFrom('messages').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('enrollment_courses').select('enrollment_id').execute()).toEqual([]);
      await expect(
        db
          .insertInto('enrollments')
          .values({ account_id: account.id, campaign_id: 999_999, employee_id: 1, enrolled_at: now })
          .execute(),
      ).rejects.toThrow(/FOREIGN KEY/);
    }
  });
});
