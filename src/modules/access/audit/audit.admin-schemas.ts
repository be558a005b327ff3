import { Type } from '@sinclair/typebox';
import { POSITIVE_INTEGER_PATTERN } from '../../../core/http/schemas.js';
import { ACTOR_KINDS, AuditEntry, auditFilters } from './audit.schemas.js';

/** Schemas of the audit log's admin routes. */

export const AuditList = Type.Object(
  { count: Type.Integer(), results: Type.Array(AuditEntry) },
  { title: 'AuditList' },
);

/** The admin page's filters: the Customer API's, and the kind of actor and the object. */
const filters = {
  ...auditFilters,
  actor_kind: Type.Optional(Type.Union(ACTOR_KINDS.map((k) => Type.Literal(k)))),
  object_type: Type.Optional(Type.String({ pattern: '^[a-z][a-z_]*$', maxLength: 60 })),
  object_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' })),
};

export const AuditListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
    page_size: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
    ...filters,
  },
  { additionalProperties: false },
);

export const AuditExportQuery = Type.Object(filters, { additionalProperties: false });
