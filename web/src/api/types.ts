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

// The schemas under their own names (generated as root types); a few are called otherwise here.
export type {
  Account,
  AccountOverview,
  AdminEmployee,
  Administrator as Admin,
  ApiKey,
  Campaign,
  CampaignEnrollment as Enrollment,
  CampaignProgress as Progress,
  Course,
  CourseSummary,
  DeviceSession,
  Employee,
  EmployeeWithGroups as EmployeeDetail,
  Group,
  ImportResult as ImportAnswer,
  Invitation as PendingInvitation,
  InvitationLink,
  Limits,
  MailSummary,
  Message,
  MessageDetail,
  QuizQuestion,
  ScimToken,
  Session,
  User,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookSettings,
} from './generated/admin-api';

export type Role = Schemas['User']['role'];
export type AccountRole = Schemas['AccountRole'];
export type Permission = Schemas['ApiKey']['permissions'][number];
/** One row of an import's answer (the schema `ImportResult` is the whole answer, ImportAnswer here). */
export type ImportResult = Schemas['ImportResult']['results'][number];
export type ImportStatus = ImportResult['status'];
export type CampaignStatus = Schemas['Campaign']['status'];
export type CampaignAction = Schemas['Campaign']['allowed_actions'][number];
export type EnrollmentStatus = Schemas['CampaignEnrollment']['status'];
export type MessageStatus = Schemas['Message']['status'];

export type AcceptInvitationInput = BodyOf<'/invitations/{token}/accept', 'post'>;
export type EmployeeInput = BodyOf<'/accounts/{accountId}/employees', 'post'>;
export type EmployeeSort = NonNullable<QueryOf<'/accounts/{accountId}/employees'>['sort']>;
export type GroupInput = BodyOf<'/accounts/{accountId}/groups', 'post'>;
/** Every field a campaign can be created with (the form holds them all). */
export type CampaignInput = Required<BodyOf<'/accounts/{accountId}/campaigns', 'post'>>;
export type CampaignField = keyof CampaignInput;
export type CourseInput = BodyOf<'/accounts/{accountId}/courses', 'post'>;

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
export const KEY_RESOURCES = ['employees', 'groups', 'campaigns', 'reports', 'audit'] as const;
export const KEY_ACCESS = ['read', 'write'] as const;
/** The permissions a key can hold. */
export const KEY_PERMISSIONS: readonly Permission[] = KEY_RESOURCES.flatMap((resource) =>
  KEY_ACCESS.map((access) => `${resource}:${access}`),
).filter((permission) => permission !== 'audit:write') as Permission[];
