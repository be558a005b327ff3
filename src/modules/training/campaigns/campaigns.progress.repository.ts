import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { employeeInScope, type GroupScope } from '../../../core/db/group-scope.js';
import { ownCampaignId } from './campaigns.repository.js';

/**
 * SQL of a campaign's progress figures, counted from its enrollments (campaigns.progress.service.ts),
 * of a role's groups only when it is limited to some (docs/roles.md). The
 * campaign id stands in each query itself, so the planner counts from the campaign_id indexes as
 * for a constant; that it is the account's campaign is checked once (an uncorrelated exists).
 */

export interface StatusCounts {
  enrolled: number;
  completed: number;
  started: number;
  /** Not completed and past a due date of their own (remedial training), started or not. */
  own_overdue: number;
  own_overdue_started: number;
  average_score: number | null;
}

/** Enrolled, completed and started (not completed) people of the account's campaign, and the mean score. */
export async function statusCounts(
  db: Db,
  accountId: number,
  campaignId: number,
  now: number,
  groups: GroupScope = null,
): Promise<StatusCounts> {
  const row = await db
    .selectFrom('enrollments')
    .select((eb) => [
      eb.fn.countAll().as('enrolled'),
      eb.fn.count('completed_at').as('completed'),
      eb.fn.count(sql`case when completed_at is null and started_at is not null then 1 end`).as('started'),
      eb.fn.count(sql`case when completed_at is null and due_at < ${now} then 1 end`).as('own_overdue'),
      eb.fn
        .count(sql`case when completed_at is null and due_at < ${now} and started_at is not null then 1 end`)
        .as('own_overdue_started'),
      eb.fn.avg('score').as('average_score'),
    ])
    .where('campaign_id', '=', campaignId)
    .where((eb) => eb.exists(ownCampaignId(db, accountId, campaignId)))
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'enrollments.employee_id')))
    .executeTakeFirstOrThrow();
  return {
    enrolled: Number(row.enrolled),
    completed: Number(row.completed),
    started: Number(row.started),
    own_overdue: Number(row.own_overdue),
    own_overdue_started: Number(row.own_overdue_started),
    average_score: row.average_score === null ? null : Number(row.average_score),
  };
}

/** Completions in the account's campaign per UTC day (days since the epoch). */
export async function completionsByDay(
  db: Db,
  accountId: number,
  campaignId: number,
  groups: GroupScope = null,
): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('enrollments')
    .select([sql<number>`completed_at / 86400000`.as('day'), (eb) => eb.fn.countAll().as('n')])
    .where('campaign_id', '=', campaignId)
    .where((eb) => eb.exists(ownCampaignId(db, accountId, campaignId)))
    .where('completed_at', 'is not', null)
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'enrollments.employee_id')))
    .groupBy(sql`completed_at / 86400000`)
    .execute();
  return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
}

/** Per course of the account's campaign: learners who started it, who passed it, and their mean best score. */
export async function courseCounts(
  db: Db,
  accountId: number,
  campaignId: number,
  groups: GroupScope = null,
): Promise<Map<string, { started: number; passed: number; average_score: number | null }>> {
  const rows = await db
    .selectFrom('enrollment_courses as ec')
    .innerJoin('enrollments as e', 'e.id', 'ec.enrollment_id')
    .select((eb) => [
      'ec.course_key',
      eb.fn.countAll().as('started'),
      eb.fn.count('ec.passed_at').as('passed'),
      eb.fn.avg('ec.best_score').as('average_score'),
    ])
    .where('e.campaign_id', '=', campaignId)
    .where((eb) => eb.exists(ownCampaignId(db, accountId, campaignId)))
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'e.employee_id')))
    .groupBy('ec.course_key')
    .execute();
  return new Map(
    rows.map((r) => [
      r.course_key,
      {
        started: Number(r.started),
        passed: Number(r.passed),
        average_score: r.average_score === null ? null : Number(r.average_score),
      },
    ]),
  );
}
