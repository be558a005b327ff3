// Names for the admin API's types, all of them generated from the server's route schemas
// (generated/admin-api.ts): nothing here is written by hand but the names.
import type { components, paths } from './generated/admin-api';

type Schemas = components['schemas'];

/** The JSON body a route takes. */
type BodyOf<Path extends keyof paths, Method extends 'post' | 'put' | 'patch'> = paths[Path][Method] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The query parameters of a GET route. */
type QueryOf<Path extends keyof paths> = paths[Path]['get'] extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;

export type User = Schemas['User'];
export type Role = User['role'];
export type Session = Schemas['Session'];
export type InvitationLink = Schemas['InvitationLink'];
export type AcceptInvitationInput = BodyOf<'/invitations/{token}/accept', 'post'>;

export type Account = Schemas['Account'];
export type AccountOverview = Schemas['AccountOverview'];
export type Admin = Schemas['Administrator'];
export type PendingInvitation = Schemas['Invitation'];
export type Limits = Schemas['Limits'];

export type ApiKey = Schemas['ApiKey'];
export type Permission = ApiKey['permissions'][number];

export type Employee = Schemas['Employee'];
export type EmployeeDetail = Schemas['EmployeeWithGroups'];
export type EmployeeInput = BodyOf<'/accounts/{accountId}/employees', 'post'>;
export type EmployeeSort = NonNullable<QueryOf<'/accounts/{accountId}/employees'>['sort']>;
export type ImportAnswer = Schemas['ImportResult'];
export type ImportResult = ImportAnswer['results'][number];
export type ImportStatus = ImportResult['status'];

export type Group = Schemas['Group'];
export type GroupInput = BodyOf<'/accounts/{accountId}/groups', 'post'>;

export type Campaign = Schemas['Campaign'];
export type CampaignStatus = Campaign['status'];
export type CampaignAction = Campaign['allowed_actions'][number];
/** Every field a campaign can be created with (the form holds them all). */
export type CampaignInput = Required<BodyOf<'/accounts/{accountId}/campaigns', 'post'>>;
export type CampaignField = keyof CampaignInput;
export type Progress = Schemas['CampaignProgress'];
export type Enrollment = Schemas['CampaignEnrollment'];
export type EnrollmentStatus = Enrollment['status'];

export type CourseSummary = Schemas['CourseSummary'];
export type Course = Schemas['Course'];
export type QuizQuestion = Schemas['QuizQuestion'];
export type CourseInput = BodyOf<'/accounts/{accountId}/courses', 'post'>;

export type Message = Schemas['Message'];
export type MessageDetail = Schemas['MessageDetail'];
export type MessageStatus = Message['status'];
export type MailSummary = Schemas['MailSummary'];

/** A list of every value of a union type: the compiler refuses one that misses a value. */
const everyOf =
  <T extends string>() =>
  <const L extends readonly T[]>(list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : never)) =>
    list as readonly T[];

export const CAMPAIGN_STATUSES = everyOf<CampaignStatus>()([
  'draft',
  'scheduled',
  'active',
  'completed',
  'archived',
]);
export const ENROLLMENT_STATUSES = everyOf<EnrollmentStatus>()([
  'not_started',
  'in_progress',
  'completed',
  'overdue',
]);
export const MESSAGE_STATUSES = everyOf<MessageStatus>()([
  'queued',
  'sending',
  'sent',
  'failed',
  'cancelled',
]);

/** The access points and rights of an API key's permissions (`employees:read`…), as the switches show them. */
export const KEY_RESOURCES = ['employees', 'groups', 'campaigns'] as const;
export const KEY_ACCESS = ['read', 'write'] as const;
