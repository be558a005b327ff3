import { adminAccessRows } from './admin-access-rows.js';
import { adminCampaignRows } from './admin-campaign-rows.js';
import { adminContentRows } from './admin-content-rows.js';
import { adminDataRows } from './admin-data-rows.js';
import { adminMfaRows } from './admin-mfa-rows.js';
import { adminPhishingCampaignRows } from './admin-phishing-campaign-rows.js';
import { adminPhishingDeliveryRows } from './admin-phishing-delivery-rows.js';
import { adminPhishingEventRows } from './admin-phishing-event-rows.js';
import { adminPhishingResultsRows } from './admin-phishing-results-rows.js';
import { adminPhishingTemplateRows } from './admin-phishing-template-rows.js';
import { adminReportingRows } from './admin-reporting-rows.js';
import { adminSessionRows } from './admin-session-rows.js';
import { adminSettingsRows } from './admin-settings-rows.js';
import { adminSsoRows } from './admin-sso-rows.js';
import { adminTriageRows } from './admin-triage-rows.js';
import { auditRows } from './audit-rows.js';
import { customerPhishingReportRows } from './customer-phishing-report-rows.js';
import { customerPhishingRows } from './customer-phishing-rows.js';
import { customerReportRows } from './customer-report-rows.js';
import { customerRows } from './customer-rows.js';
import type { Row } from './matrix.js';
import { scimRows } from './scim-rows.js';
import { webhookRows } from './webhook-rows.js';

/** Every row of the isolation matrix (the audit log's coverage test walks them too). */
export const ROWS: Row[] = [
  ...customerRows,
  ...customerPhishingReportRows,
  ...adminAccessRows,
  ...adminSessionRows,
  ...adminMfaRows,
  ...adminSettingsRows,
  ...adminDataRows,
  ...adminContentRows,
  ...adminCampaignRows,
  ...adminPhishingTemplateRows,
  ...customerPhishingRows,
  ...adminPhishingResultsRows,
  ...adminPhishingEventRows,
  ...adminPhishingCampaignRows,
  ...adminPhishingDeliveryRows,
  ...customerReportRows,
  ...adminTriageRows,
  ...scimRows,
  ...webhookRows,
  ...adminReportingRows,
  ...adminSsoRows,
  ...auditRows,
];
