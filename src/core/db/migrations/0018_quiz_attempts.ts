import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 21, item 7: a quiz's rules per course and account, and every attempt kept.
//
// `course_quiz_rules` holds an account's rules for one course, built-in (`phishing`) or its own
// (`custom-<id>`): how many attempts a learner has (null: unlimited) and when the right answers
// are shown after an attempt (`passed_or_last`: once passed or after the last attempt; `always`;
// `never`). No row means the defaults, so every course already in use keeps unlimited attempts
// and now shows the answers only once passed.
//
// `quiz_attempts` records each attempt: its number in the learner's course, score, whether it
// passed (by the pass mark of that moment) and when. The unique number per (enrollment, course) is
// the last guard against two submissions taking the same attempt. Attempts made before this
// migration were only counted (`enrollment_courses.attempts`); they have no row.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const ref = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('course_quiz_rules')
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('course_key', 'text', (c) => c.notNull())
    .addColumn('max_attempts', 'integer')
    .addColumn('answers_shown', 'text', (c) => c.notNull().defaultTo('passed_or_last'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('course_quiz_rules_pk', ['account_id', 'course_key'])
    .execute();

  await db.schema
    .createTable('quiz_attempts')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    // No foreign key on account_id: the enrollment's already cascades from the account.
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('enrollment_id', ref, (c) => c.notNull().references('enrollments.id').onDelete('cascade'))
    .addColumn('course_key', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('passed', 'integer', (c) => c.notNull())
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('quiz_attempts_number_uq', ['enrollment_id', 'course_key', 'number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table quiz_attempts`.execute(db);
  await sql`drop table course_quiz_rules`.execute(db);
}
