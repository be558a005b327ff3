import type { FastifyRequest } from 'fastify';
import type { Db } from '../core/db/database.js';
import { AppError, roleLacksPermission } from '../core/errors.js';
import {
  campaignIsInScope,
  employeeIsInScope,
  personRowIsInScope,
} from '../modules/access/roles/roles.repository.js';

/**
 * The path ids that name a row about one person, the kind of row, and the error of one that does
 * not exist: outside the scope, the same.
 */
const PERSON_ROWS = [
  ['enrollmentId', 'enrollment', 'enrollment_not_found'],
  ['recipientId', 'recipient', 'phishing_recipient_not_found'],
  ['eventId', 'event', 'phishing_event_not_found'],
  ['messageId', 'message', 'message_not_found'],
  ['reportId', 'report', 'report_not_found'],
] as const;

/**
 * The object routes of an administrator whose role is limited to groups (docs/roles.md): a group
 * outside the scope, an employee who belongs to none of its groups, a campaign that targets a
 * group outside it answer 404 exactly as one that does not exist (docs/internals/tenancy.md);
 * so do a campaign's enrollment or recipient (and its events), a message or a reported message
 * about nobody in the scope (a person removed from the scope's groups since the campaign's
 * launch); a campaign may target only groups of the scope; what would make something outside
 * every group (a new group, a new or imported employee) is refused. Lists filter in their own SQL.
 */
export async function checkGroupScope(
  db: Db,
  request: FastifyRequest,
  accountId: number,
  groups: readonly number[],
): Promise<void> {
  const url = request.routeOptions.url ?? '';
  const params = request.params as Record<string, unknown>;
  if (request.routeOptions.config?.everyGroup) {
    throw roleLacksPermission('A role limited to groups cannot do this: it would reach beyond them');
  }
  if (typeof params.groupId === 'number' && !groups.includes(params.groupId)) {
    throw new AppError('group_not_found');
  }
  if (
    typeof params.employeeId === 'number' &&
    !(await employeeIsInScope(db, accountId, params.employeeId, groups))
  ) {
    throw new AppError('employee_not_found');
  }
  const phishing = url.includes('/phishing/campaigns');
  if (typeof params.campaignId === 'number') {
    const kind = phishing ? 'phishing' : 'training';
    if (!(await campaignIsInScope(db, accountId, kind, params.campaignId, groups))) {
      throw new AppError(phishing ? 'phishing_campaign_not_found' : 'campaign_not_found');
    }
  }
  for (const [param, kind, notFound] of PERSON_ROWS) {
    const id = params[param];
    if (typeof id === 'number' && !(await personRowIsInScope(db, accountId, kind, id, groups))) {
      throw new AppError(notFound);
    }
  }
  const body = request.body as { group_ids?: unknown } | undefined;
  if (url.includes('campaigns') && Array.isArray(body?.group_ids)) {
    // As groups of another account: unknown here (the campaign's own validation words it so).
    const outside = (body.group_ids as number[]).filter((id) => !groups.includes(id));
    if (outside.length > 0) {
      throw new AppError('validation_failed', {
        details: { group_ids: [`unknown groups: ${[...new Set(outside)].join(', ')}`] },
      });
    }
  }
}
