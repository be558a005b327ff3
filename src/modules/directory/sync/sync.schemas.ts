import { Type } from '@sinclair/typebox';
import { errorSchema, listErrors } from '../../../core/http/error-responses.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';
import { Id, PageQuery, Paginated, Timestamp } from '../../../core/http/schemas.js';

/** Schemas of incremental sync, shared by the employee and group routes. */

const instant = (description: string) =>
  Type.String({
    description,
    examples: ['2026-11-22T09:14:03.512Z'],
    // Documented as what it is; the service parses it and answers 400 for anything else.
    [OPENAPI_OVERRIDE]: {
      type: 'string',
      format: 'date-time',
      examples: ['2026-11-22T09:14:03.512Z'],
    },
  });

export const UPDATED_SINCE_DESCRIPTION =
  'Only the items created or changed at or after this instant (ISO 8601 with a time zone: `Z` or an offset such as `+01:00`, percent-encoded as `%2B01:00`). Order and paging stay as without it (by id). For the next sync, send the time your previous sync started, less a minute: a sync takes everything again from then, so a change committed while it ran is not missed (repeats are harmless).';

export const updatedSinceQuery = {
  updated_since: Type.Optional(instant(UPDATED_SINCE_DESCRIPTION)),
};

export const DeletedQuery = Type.Object({
  ...PageQuery,
  since: Type.Optional(
    instant(
      'Only the ids deleted at or after this instant (ISO 8601 with a time zone); all kept deletions without it.',
    ),
  ),
});

export const DeletedItem = Type.Object(
  {
    id: Id,
    deleted_at: Timestamp,
  },
  {
    title: 'DeletedItem',
    description: 'The id of a deleted item (never given out again) and when it was deleted.',
    examples: [{ id: 17, deleted_at: '2026-11-22T09:14:03.512Z' }],
  },
);

/** The 400 of a list that takes an instant: a bad page number or instant. */
export const badListQuery = (field: 'updated_since' | 'since') =>
  errorSchema(
    `\`page\` or \`page_size\` is not a positive integer, or \`${field}\` is not an ISO 8601 instant with a time zone.`,
    [
      { code: 'validation_failed', details: { page_size: ['must be a positive integer'] } },
      {
        code: 'validation_failed',
        details: {
          [field]: ['must be an ISO 8601 instant with a time zone, such as 2026-11-22T09:14:03.512Z'],
        },
      },
    ],
  );

const deletedPage = Paginated(DeletedItem, 'DeletedItemPage');

export const deletedResponses = (accessPoint: 'employees' | 'groups') => ({
  200: Type.Object(deletedPage.properties, {
    title: 'DeletedItemPage',
    description: 'One page of deleted ids, oldest deletion first (then by id).',
    examples: deletedPage.examples,
  }),
  ...listErrors(accessPoint),
  400: badListQuery('since'),
});
