import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { findCourses } from '../courses/courses.lookup.service.js';
import type { EnrollmentStatus } from '../enrollments/enrollments.repository.js';
import { completionsByDay, courseCounts, statusCounts } from './campaigns.progress.repository.js';
import { getCampaign } from './campaigns.service.js';

/** A campaign's progress: how many are where, completions per day, and how each course went. */

const DAY_MS = 86_400_000;
/** The timeline of a campaign stops after this many days (a campaign left running for years). */
const MAX_TIMELINE_DAYS = 400;

export interface CampaignProgress {
  counts: Record<'enrolled' | EnrollmentStatus, number>;
  completion_rate: number;
  average_score: number | null;
  timeline: Array<{ date: string; completed: number }>;
  courses: Array<{
    key: string;
    title: string;
    started: number;
    passed: number;
    average_score: number | null;
  }>;
  /** Everyone in the campaign, or only the people of a role's groups (docs/roles.md). */
  covers: 'campaign' | 'scope';
}

/** Completed share of the enrolled, 0 to 1, to four places (0 while nobody is enrolled). */
export function completionRate(enrolled: number, completed: number): number {
  return enrolled === 0 ? 0 : Math.round((completed / enrolled) * 10_000) / 10_000;
}

function roundedScore(score: number | null): number | null {
  return score === null ? null : Math.round(score * 10) / 10;
}

/**
 * A campaign's figures: status counts, completions per day, and how each course went. Counted
 * from the enrollments each time, so a role limited to groups gets them over the people it may
 * see (someone removed from its groups since the launch is not counted).
 */
export async function campaignProgress(
  db: Db,
  accountId: number,
  campaignId: number,
  groups: GroupScope = null,
): Promise<CampaignProgress> {
  const campaign = await getCampaign(db, accountId, campaignId);
  const now = Date.now();
  const [counts, byDay, byCourse, courses] = await Promise.all([
    statusCounts(db, accountId, campaign.id, now, groups),
    completionsByDay(db, accountId, campaign.id, groups),
    courseCounts(db, accountId, campaign.id, groups),
    findCourses(db, accountId, campaign.course_keys),
  ]);
  const overdue = campaign.due_at !== null && campaign.due_at < now;
  const open = counts.enrolled - counts.completed;
  const timeline: CampaignProgress['timeline'] = [];
  if (campaign.launched_at !== null) {
    const first = Math.floor(campaign.launched_at / DAY_MS);
    const last = Math.min(
      Math.floor(Math.max(now, campaign.due_at ?? now) / DAY_MS),
      first + MAX_TIMELINE_DAYS - 1,
    );
    for (let day = first; day <= last; day++) {
      timeline.push({
        date: new Date(day * DAY_MS).toISOString().slice(0, 10),
        completed: byDay.get(day) ?? 0,
      });
    }
  }
  return {
    counts: {
      enrolled: counts.enrolled,
      completed: counts.completed,
      // Past the campaign's due date, everyone not done is overdue; else those past their own (remedial training).
      overdue: overdue ? open : counts.own_overdue,
      in_progress: overdue ? 0 : counts.started - counts.own_overdue_started,
      not_started: overdue ? 0 : open - counts.started - (counts.own_overdue - counts.own_overdue_started),
    },
    completion_rate: completionRate(counts.enrolled, counts.completed),
    average_score: roundedScore(counts.average_score),
    timeline,
    courses: campaign.course_keys.map((key) => {
      const c = byCourse.get(key);
      return {
        key,
        title: courses.get(key)?.title ?? key,
        started: c?.started ?? 0,
        passed: c?.passed ?? 0,
        average_score: roundedScore(c?.average_score ?? null),
      };
    }),
    covers: groups === null ? 'campaign' : 'scope',
  };
}
