import type { Migration } from 'kysely';
import * as m0006 from './migrations/0006_employee_search.js';
import * as m0007 from './migrations/0007_keep_training_history.js';
import * as m0008 from './migrations/0008_mail_priority.js';
import * as m0009 from './migrations/0009_phishing.js';
import * as m0010 from './migrations/0010_idempotency.js';
import * as m0011 from './migrations/0011_incremental_sync.js';
import * as m0012 from './migrations/0012_webhooks.js';
import * as m0013 from './migrations/0013_scim.js';
import * as m0014 from './migrations/0014_webhook_fanout.js';
import * as m0015 from './migrations/0015_tracking_settle.js';
import * as m0016 from './migrations/0016_reports_access_point.js';
import * as m0017 from './migrations/0017_employee_facing_names.js';
import * as m0018 from './migrations/0018_quiz_attempts.js';
import * as m0019 from './migrations/0019_phishing_sending.js';
import * as m0020 from './migrations/0020_name_sort_indexes.js';
import * as m0021 from './migrations/0021_reporting.js';
import * as m0022 from './migrations/0022_delivery_tests.js';
import * as m0023 from './migrations/0023_admin_platform.js';
import * as m0024 from './migrations/0024_role_scopes.js';
import * as m0025 from './migrations/0025_audit_extras.js';
import * as m0026 from './migrations/0026_mfa.js';
import * as m0027 from './migrations/0027_sso.js';
import * as m0028 from './migrations/0028_audit_pending.js';
import * as m0029 from './migrations/0029_audit_journal.js';
import { migrations as first } from './migrations/index.js';

/**
 * Every migration, in order; names sort in the order they run. `migrations/index.ts` lists the
 * first five as they landed and is frozen like them (a file of that folder never changes once
 * landed), so every later migration is listed here.
 */
export const migrations: Record<string, Migration> = {
  ...first,
  '0006_employee_search': m0006,
  '0007_keep_training_history': m0007,
  '0008_mail_priority': m0008,
  '0009_phishing': m0009,
  '0010_idempotency': m0010,
  '0011_incremental_sync': m0011,
  '0012_webhooks': m0012,
  '0013_scim': m0013,
  '0014_webhook_fanout': m0014,
  '0015_tracking_settle': m0015,
  '0016_reports_access_point': m0016,
  '0017_employee_facing_names': m0017,
  '0018_quiz_attempts': m0018,
  '0019_phishing_sending': m0019,
  '0020_name_sort_indexes': m0020,
  '0021_reporting': m0021,
  '0022_delivery_tests': m0022,
  '0023_admin_platform': m0023,
  '0024_role_scopes': m0024,
  '0025_audit_extras': m0025,
  '0026_mfa': m0026,
  '0027_sso': m0027,
  '0028_audit_pending': m0028,
  '0029_audit_journal': m0029,
};
