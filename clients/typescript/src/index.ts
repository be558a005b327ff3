export { VigilClient } from './client.js';
export {
  type ErrorDetails,
  type ErrorDetailsByCode,
  isVigilError,
  VigilError,
  type VigilErrorCode,
} from './errors.js';
export type * from './generated/customer-api.js';
export { operationRoutes } from './generated/customer-api.js';
export type { ApiErrorCode, JsonBody, OperationId, PathParams, QueryParams, Success } from './operations.js';
export { MAX_PAGE_SIZE, type Page, PageIterator, type PageParams } from './pagination.js';
export type {
  Enrollment,
  EnrollmentListParams,
  PhishingCampaign,
  PhishingCampaignListParams,
  PhishingRecipientResult,
  PhishingResultListParams,
  TrainingCampaign,
  TrainingCampaignListParams,
} from './resources/campaigns.js';
export type {
  BulkEmployeeRow,
  BulkEmployeesResult,
  DeletedItem,
  DeletedListParams,
  EmployeeChanges,
  EmployeeListParams,
  NewEmployee,
} from './resources/employees.js';
export type {
  GroupChanges,
  GroupListParams,
  GroupMembership,
  GroupWithEtag,
  NewGroup,
} from './resources/groups.js';
export type {
  NewWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointWithSecret,
} from './resources/webhooks.js';
export { retryAfterMs } from './retry.js';
export type { ApiResponse, CallArgs, RequestOptions, RetryEvent, VigilClientOptions } from './transport.js';
export { CLIENT_VERSION } from './version.js';
