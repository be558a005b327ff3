import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import { getEmployee } from '../../directory/index.js';
import { coursesOfCampaigns } from '../courses/courses.lookup.service.js';
import type { EnrollmentStatus } from '../enrollments/enrollments.repository.js';
import {
  countEmployeeEnrollments,
  type EmployeeEnrollmentRow,
  type EnrollmentCourseRow,
  employeeEnrollmentRows,
  enrollmentCourseRows,
} from './campaigns.employee.repository.js';
import { enrollmentStatus } from './campaigns.enrollments.service.js';

/** The lesson indexes of a stored JSON array below `count`, each once; anything else reads as none. */
function lessonsRead(json: string | undefined, count: number): number {
  if (json === undefined) return 0;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return 0;
    return new Set(value.filter((i): i is number => Number.isSafeInteger(i) && i >= 0 && i < count)).size;
  } catch {
    return 0;
  }
}

/** One course of an enrollment and the learner's progress in it. */
export interface EmployeeEnrollmentCourse {
  key: string;
  /** Null when the account's course was deleted since. */
  title: string | null;
  lessons: number;
  lessons_read: number;
  attempts: number;
  best_score: number | null;
  passed_at: number | null;
}

/** One of an employee's enrollments: its campaign, status, dates, score and each course's progress. */
export interface EmployeeEnrollment extends EmployeeEnrollmentRow {
  status: EnrollmentStatus;
  courses: EmployeeEnrollmentCourse[];
}

/**
 * A page of an employee's training, the latest enrollment first: each campaign they are enrolled
 * in, with the status a learner is shown in now, and their progress in each of its courses.
 * 404 when the account has no such employee (a deleted one's record is in its campaigns).
 */
export async function employeeEnrollments(
  db: Db,
  accountId: number,
  employeeId: number,
  window: ListWindow,
  now = Date.now(),
  groups: GroupScope = null,
): Promise<ListPage<EmployeeEnrollment>> {
  await getEmployee(db, accountId, employeeId);
  const page = await readList(
    window,
    () => countEmployeeEnrollments(db, accountId, employeeId, groups),
    (limit, offset) => employeeEnrollmentRows(db, accountId, employeeId, limit, offset, groups),
  );
  const courses = await coursesOfCampaigns(db, accountId, [...new Set(page.items.map((e) => e.campaign_id))]);
  const progress = new Map<string, EnrollmentCourseRow>();
  for (const row of await enrollmentCourseRows(
    db,
    accountId,
    page.items.map((e) => e.id),
  )) {
    progress.set(`${row.enrollment_id}:${row.course_key}`, row);
  }
  return {
    count: page.count,
    items: page.items.map((row) => ({
      ...row,
      status: enrollmentStatus(row, row.due_at, now),
      courses: (courses.get(row.campaign_id) ?? []).map(({ key, course }) => {
        const p = progress.get(`${row.id}:${key}`);
        const lessons = course?.lessons.length ?? 0;
        return {
          key,
          title: course?.title ?? null,
          lessons,
          lessons_read: lessonsRead(p?.lessons_read, lessons),
          attempts: p?.attempts ?? 0,
          best_score: p?.best_score ?? null,
          passed_at: p?.passed_at ?? null,
        };
      }),
    })),
  };
}
