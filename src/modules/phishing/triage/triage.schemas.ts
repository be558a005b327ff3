import { Type } from '@sinclair/typebox';
import { errorSchema, listErrors, standardErrors } from '../../../core/http/error-responses.js';
import { IdParam, PageQuery, Paginated } from '../../../core/http/schemas.js';
import { ReportDetail, ReportSummary } from './triage.admin-schemas.js';

/** Schemas of the Customer API's triage routes (`reports:read`, v2.3.0). */

export const ReportIdParams = IdParam('report_id', 'The report id.');

/** A date, or a date and time with its zone (RFC 3339): `2026-11-01` or `2026-11-01T09:00:00Z`. */
export const INSTANT_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$';

const Instant = (description: string) =>
  Type.String({ pattern: INSTANT_PATTERN, maxLength: 40, description, examples: ['2026-11-01T00:00:00Z'] });

export const ListReportsQuery = Type.Object(
  {
    ...PageQuery,
    verdict: Type.Optional(
      Type.Union(
        [Type.Literal('malicious'), Type.Literal('spam'), Type.Literal('safe'), Type.Literal('none')],
        { description: 'Only reports with this verdict (`none`: not judged yet).' },
      ),
    ),
    since: Type.Optional(Instant('Only reports last reported at or after this time.')),
    until: Type.Optional(Instant('Only reports last reported before this time.')),
  },
  { additionalProperties: false },
);

export const listReportsResponses = {
  200: Paginated(ReportSummary, 'ReportPage'),
  ...listErrors('reports'),
  400: errorSchema(
    '`page` or `page_size` is not a positive integer, or `verdict`, `since` or `until` is not valid.',
    [{ code: 'validation_failed', details: { since: ['must be a date-time'] } }],
  ),
};

export const getReportResponses = {
  200: ReportDetail,
  ...standardErrors('reports', 'read'),
  404: errorSchema('No such report in the key’s account.', [{ code: 'report_not_found' }]),
};
