import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { foldedContainsPattern } from '../../../core/db/like.js';
import { AppError, validationFailed } from '../../../core/errors.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
} from '../../../core/pagination.js';
import { isoOrNull } from '../../../core/time.js';
import { queueCampaignMessages } from '../../mail/index.js';
import {
  attemptCountsOf,
  type QuizAttemptRow,
  quizAttemptsOf,
} from '../enrollments/enrollments.attempts.repository.js';
import {
  countEnrollments,
  ENROLLMENT_STATUSES,
  type EnrollmentFilter,
  type EnrollmentListRow,
  type EnrollmentStatus,
  enrollmentsAfter,
  findCampaignEnrollment,
  listEnrollments,
  readEnrollmentsByName,
} from '../enrollments/enrollments.repository.js';
import { type CampaignView, getCampaign } from './campaigns.service.js';

const EXPORT_BATCH_SIZE = 2000;

export interface Enrollment extends EnrollmentListRow {
  status: EnrollmentStatus;
}

/** An enrollment as an administrator sees it: with the learner's quiz attempts. */
export interface AdminEnrollmentView extends Enrollment {
  /** Attempts at all the campaign's quizzes, those made before each was kept included. */
  attemptCount: number;
  /** Each attempt kept, in the order made. */
  attempts: QuizAttemptRow[];
}

/** The enrollments with their quiz attempts (two queries for the whole page). */
async function withAttempts(
  db: Db,
  accountId: number,
  enrollments: Enrollment[],
): Promise<AdminEnrollmentView[]> {
  const ids = enrollments.map((e) => e.id);
  const [counts, attempts] = await Promise.all([
    attemptCountsOf(db, accountId, ids),
    quizAttemptsOf(db, accountId, ids),
  ]);
  return enrollments.map((e) => {
    const own = attempts.filter((a) => a.enrollment_id === e.id);
    return { ...e, attemptCount: Math.max(counts.get(e.id) ?? 0, own.length), attempts: own };
  });
}

function checkStatus(status: string | undefined): EnrollmentStatus | undefined {
  if (status === undefined || status === '') return undefined;
  if (!(ENROLLMENT_STATUSES as readonly string[]).includes(status)) {
    throw validationFailed({ status: [`must be one of ${ENROLLMENT_STATUSES.join(', ')}`] });
  }
  return status as EnrollmentStatus;
}

/** Shown for a deleted employee, whose name and address went with their employee row. */
export const DELETED_EMPLOYEE_NAME = 'Deleted employee';

/**
 * Who an enrollment is for, as lists and exports show it: the employee, or once deleted
 * "Deleted employee" "#<id>" with an empty address (the shape stays: every field a string).
 */
export function enrollmentPerson(
  row: Pick<EnrollmentListRow, 'employee_id' | 'first_name' | 'last_name' | 'email' | 'employee_deleted_at'>,
): { id: number; first_name: string; last_name: string; email: string } {
  if (row.employee_deleted_at !== null || row.first_name === null) {
    return {
      id: row.employee_id,
      first_name: DELETED_EMPLOYEE_NAME,
      last_name: `#${row.employee_id}`,
      email: '',
    };
  }
  return {
    id: row.employee_id,
    first_name: row.first_name,
    last_name: row.last_name ?? '',
    email: row.email ?? '',
  };
}

/** The status a learner is shown in at `now`. */
export function enrollmentStatus(
  row: Pick<EnrollmentListRow, 'started_at' | 'completed_at'>,
  dueAt: number | null,
  now: number,
): EnrollmentStatus {
  if (row.completed_at !== null) return 'completed';
  if (dueAt !== null && dueAt < now) return 'overdue';
  return row.started_at !== null ? 'in_progress' : 'not_started';
}

function withStatus(campaign: CampaignView, now: number) {
  return (row: EnrollmentListRow): Enrollment => ({
    ...row,
    // Its own due date (remedial training) before the campaign's.
    due_at: row.due_at ?? campaign.due_at,
    status: enrollmentStatus(row, row.due_at ?? campaign.due_at, now),
  });
}

/** A page of a campaign's enrollments for the Customer API, by employee id. */
export async function findEnrollments(
  db: Db,
  accountId: number,
  campaignId: number,
  page: PageRequest,
  query: { status?: string },
): Promise<Page<Enrollment>> {
  const status = checkStatus(query.status);
  const campaign = await getCampaign(db, accountId, campaignId);
  const now = Date.now();
  const filter: EnrollmentFilter = { campaignId: campaign.id, dueAt: campaign.due_at, now, status };
  const result = await fetchPage(
    page,
    () => countEnrollments(db, accountId, filter),
    (limit, offset) => listEnrollments(db, accountId, filter, limit, offset),
  );
  return { ...result, items: result.items.map(withStatus(campaign, now)) };
}

/** A page of a campaign's enrollments for the web interface, by name, with a status filter and a search. */
export async function listEnrollmentsPage(
  db: Db,
  accountId: number,
  campaignId: number,
  query: { status?: string; search?: string },
  window: ListWindow,
  groups: GroupScope = null,
): Promise<ListPage<AdminEnrollmentView>> {
  const status = checkStatus(query.status);
  const campaign = await getCampaign(db, accountId, campaignId);
  const pattern = foldedContainsPattern(query.search);
  if (pattern === null) return { count: 0, items: [] };
  const now = Date.now();
  const filter: EnrollmentFilter = {
    campaignId: campaign.id,
    dueAt: campaign.due_at,
    now,
    status,
    pattern,
    groups,
  };
  const page = await readEnrollmentsByName(db, accountId, filter, window);
  return { ...page, items: await withAttempts(db, accountId, page.items.map(withStatus(campaign, now))) };
}

/**
 * Sends one person their invitation again (an administrator's "Resend invitation": the mail was
 * lost, or went to an old address): a new invitation message with a fresh link, queued for the
 * workers ahead of bulk mail (someone is waiting for it). Only while the campaign is active, not
 * to someone who has completed, and not while an earlier invitation to them is still waiting to
 * go out.
 */
export async function resendInvitation(
  db: Db,
  accountId: number,
  campaignId: number,
  enrollmentId: number,
): Promise<AdminEnrollmentView> {
  const campaign = await getCampaign(db, accountId, campaignId);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const enrollment = await findCampaignEnrollment(trx, accountId, campaign.id, enrollmentId);
    if (!enrollment) throw new AppError('enrollment_not_found');
    if (enrollment.employee_deleted_at !== null) throw new AppError('employee_deleted');
    if (campaign.status !== 'active') throw new AppError('campaign_not_active');
    if (enrollment.completed_at !== null) throw new AppError('training_completed');
    if (enrollment.invitation_status === 'queued' || enrollment.invitation_status === 'sending') {
      throw new AppError('invitation_pending');
    }
    await queueCampaignMessages(trx, {
      accountId,
      campaignId: campaign.id,
      kind: 'invitation',
      round: (enrollment.round ?? -1) + 1,
      now,
      enrollmentIds: [enrollment.id],
      waiting: true,
    });
    await recordAudit(trx, {
      accountId,
      action: 'enrollment.invitation_resent',
      object: { type: 'enrollment', id: enrollment.id, label: campaign.name },
      changes: { campaign_id: { from: null, to: campaign.id } },
    });
  });
  const filter: EnrollmentFilter = { campaignId: campaign.id, dueAt: campaign.due_at, now };
  const [row] = await enrollmentsAfter(db, accountId, { ...filter, enrollmentId }, 0, 1);
  return (
    await withAttempts(db, accountId, [withStatus(campaign, now)(row as EnrollmentListRow)])
  )[0] as AdminEnrollmentView;
}

const CSV_COLUMNS = [
  'employee_id',
  'first_name',
  'last_name',
  'email',
  'status',
  'enrolled_at',
  'started_at',
  'completed_at',
  'score',
  'invitation',
];

/**
 * A campaign's enrollments as CSV, streamed in employee id order; cells a spreadsheet would run
 * as a formula are neutralised (as in the employees export). A role limited to groups gets the
 * people of its groups only.
 */
export async function exportEnrollments(
  db: Db,
  accountId: number,
  campaignId: number,
  groups: GroupScope = null,
): Promise<Readable> {
  const campaign = await getCampaign(db, accountId, campaignId);
  const now = Date.now();
  const filter: EnrollmentFilter = { campaignId: campaign.id, dueAt: campaign.due_at, now, groups };
  const records = Readable.from(
    (async function* () {
      let after = 0;
      for (;;) {
        const batch = await enrollmentsAfter(db, accountId, filter, after, EXPORT_BATCH_SIZE);
        for (const e of batch) {
          const person = enrollmentPerson(e);
          yield [
            e.employee_id,
            person.first_name,
            person.last_name,
            person.email,
            enrollmentStatus(e, e.due_at ?? campaign.due_at, now),
            isoOrNull(e.enrolled_at),
            isoOrNull(e.started_at),
            isoOrNull(e.completed_at),
            e.score ?? '',
            e.invitation_status ?? '',
          ];
        }
        const last = batch.at(-1);
        if (!last || batch.length < EXPORT_BATCH_SIZE) return;
        after = last.employee_id;
      }
    })(),
  );
  return pipeline(
    records,
    stringify({ header: true, columns: CSV_COLUMNS, escape_formulas: true, bom: true }),
    () => {},
  );
}
