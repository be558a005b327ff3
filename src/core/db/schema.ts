/**
 * Table types. Timestamps are epoch milliseconds (integer in SQLite, bigint in PostgreSQL) so
 * one code path serves both dialects; presenters turn them into ISO 8601 strings.
 */

export * from './schema/access.js';
export * from './schema/audit.js';
export * from './schema/directory.js';
export * from './schema/integrations.js';
export * from './schema/mail.js';
export * from './schema/phishing.js';
export * from './schema/service.js';
export * from './schema/training.js';

import type { AccessTables } from './schema/access.js';
import type { AuditTables } from './schema/audit.js';
import type { DirectoryTables } from './schema/directory.js';
import type { IntegrationsTables } from './schema/integrations.js';
import type { MailTables } from './schema/mail.js';
import type { PhishingTables } from './schema/phishing.js';
import type { ServiceTables } from './schema/service.js';
import type { TrainingTables } from './schema/training.js';

/** Every table, assembled from one file per context (schema/). */
export interface DB
  extends ServiceTables,
    AccessTables,
    AuditTables,
    DirectoryTables,
    MailTables,
    TrainingTables,
    PhishingTables,
    IntegrationsTables {}
