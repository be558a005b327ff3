import type { Generated } from 'kysely';

/** The tables of courses, training campaigns and their targets, enrollments, reminders. */

export type CampaignStatus = 'draft' | 'scheduled' | 'active' | 'completed' | 'archived';

export interface TrainingCampaignsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: Generated<string>;
  status: CampaignStatus;
  /** When the campaign launches (scheduled) or launched (active and later). */
  start_at: number | null;
  due_at: number | null;
  /** JSON array of whole days before the due date on which reminders go out, descending. */
  reminder_days: Generated<string>;
  /** 1: employees who join a target group while the campaign is active are enrolled too. */
  enroll_new_members: Generated<number>;
  launched_at: number | null;
  /** When it was stopped. */
  completed_at: number | null;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

/** An account's own course; its key is `custom-<id>`. Built-in courses live in `content/courses/`. */
export interface CoursesTable {
  id: Generated<number>;
  account_id: number;
  title: string;
  summary: string;
  minutes: number;
  pass_mark: number;
  /** JSON array of `{title, markdown}`. */
  lessons: string;
  /** JSON array of `{question, choices, answer, explanation}`. */
  quiz: string;
  created_at: number;
  updated_at: number;
}

export interface CampaignCoursesTable {
  campaign_id: number;
  /** A built-in slug (`phishing`) or `custom-<id>`. */
  course_key: string;
  position: number;
}

export interface EnrollmentsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  employee_id: number;
  enrolled_at: number;
  /** The learner's first recorded step (reading a lesson); opening the link alone is not one. */
  started_at: number | null;
  /** When the last of the campaign's quizzes was passed. */
  completed_at: number | null;
  /** Whole percent: the mean of the best score in each course, once every quiz has been taken. */
  score: number | null;
  last_activity_at: number | null;
  /**
   * When the employee was deleted (migration 0007): the enrollment stays as the record of their
   * training, with `employee_id` pointing at no row and no name or address; null while they exist.
   */
  employee_deleted_at: number | null;
  /** When the scheduler found it past its campaign's due date, incomplete (migration 0012; once each). */
  overdue_at: number | null;
  /** Its own due date (migration 0017; remedial training): null, the campaign's `due_at`. */
  due_at: number | null;
  /** The last reminder round queued for its own due date (days before it); null: none yet. */
  reminded_days: number | null;
}

export interface EnrollmentCoursesTable {
  enrollment_id: number;
  course_key: string;
  /** JSON array of the lesson indexes read. */
  lessons_read: Generated<string>;
  attempts: Generated<number>;
  best_score: number | null;
  /** JSON array of the choice indexes of the last attempt. */
  last_answers: string | null;
  passed_at: number | null;
  started_at: number;
  updated_at: number;
}

/** When a quiz shows its right answers after an attempt (migration 0018). */
export type AnswersShown = 'passed_or_last' | 'always' | 'never';

/** An account's quiz rules for one course, built-in or its own; no row: the defaults (0018). */
export interface CourseQuizRulesTable {
  account_id: number;
  course_key: string;
  /** Attempts a learner has at the quiz; null: unlimited. */
  max_attempts: number | null;
  answers_shown: Generated<AnswersShown>;
  updated_at: number;
}

/** One attempt at a course's quiz (0018; attempts before it were only counted). */
export interface QuizAttemptsTable {
  id: Generated<number>;
  account_id: number;
  enrollment_id: number;
  course_key: string;
  /** 1 for the learner's first attempt at the course, and so on. */
  number: number;
  score: number;
  /** 1 when it reached the pass mark of its moment. */
  passed: number;
  submitted_at: number;
}

export interface CampaignRemindersTable {
  campaign_id: number;
  days_before_due: number;
  queued_at: number;
  queued_count: number;
}

export interface CampaignGroupsTable {
  campaign_id: number;
  group_id: number;
}

export interface TrainingTables {
  training_campaigns: TrainingCampaignsTable;
  campaign_groups: CampaignGroupsTable;
  courses: CoursesTable;
  campaign_courses: CampaignCoursesTable;
  enrollments: EnrollmentsTable;
  enrollment_courses: EnrollmentCoursesTable;
  campaign_reminders: CampaignRemindersTable;
  course_quiz_rules: CourseQuizRulesTable;
  quiz_attempts: QuizAttemptsTable;
}
