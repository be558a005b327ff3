import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../admin/request.js';
import { NullableTimestamp, PathId, responses, Timestamp } from '../../admin/schemas.js';
import { AppError } from '../../errors.js';
import { Id, ListOf } from '../../http/schemas.js';
import { iso, isoOrNull } from '../../time.js';
import { CLASSIFICATION_REASONS } from './phishing.classify.js';
import { eventsOfRecipient } from './phishing.results.repository.js';
import { getPhishingCampaignRow } from './phishing.results.service.js';

/**
 * A minimal per-recipient event timeline for the results page, until area C's route (same path)
 * is merged: reconcile at merge and keep one.
 */

const SYSTEM_REASONS: Record<string, string> = {
  smtp_accepted: 'The mail server accepted the message.',
  delivery_failed: 'The message could not be delivered.',
  remedial_enrollment: 'Enrolled in the remedial training.',
  report_api: 'Reported through the API (a report button or mail gateway).',
  report_message: 'Reported by forwarding the message.',
};

export function reasonText(reason: string): string {
  return (CLASSIFICATION_REASONS as Record<string, string>)[reason] ?? SYSTEM_REASONS[reason] ?? reason;
}

const TimelineEvent = Type.Object(
  {
    id: Id,
    kind: Type.String(),
    occurred_at: Timestamp,
    client_address: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
    classification: Type.Union([Type.Literal('human'), Type.Literal('automated')]),
    reason: Type.String(),
    reason_text: Type.String(),
    field_names: Type.Array(Type.String(), {
      description: 'A submission’s field names; values are never stored.',
    }),
    original_classification: Type.Union([Type.Literal('human'), Type.Literal('automated'), Type.Null()]),
    reclassified_at: NullableTimestamp,
    reclassified_reason: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'PhishingEvent' },
);

const Params = Type.Object({ accountId: PathId, campaignId: PathId, recipientId: PathId });

function fieldNames(text: string | null): string[] {
  if (!text) return [];
  try {
    const names = JSON.parse(text) as unknown;
    return Array.isArray(names) ? names.map(String) : [];
  } catch {
    return [];
  }
}

export const phishingTimelineAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/phishing/campaigns/:campaignId/recipients/:recipientId/events',
    {
      schema: {
        tags: ['Phishing results'],
        summary: 'One person’s events, oldest first, each classified human or automated with the reason',
        params: Params,
        response: responses({ 200: ListOf(TimelineEvent) }),
      },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      const campaign = await getPhishingCampaignRow(app.db, accountId, request.params.campaignId);
      const events = await eventsOfRecipient(app.db, accountId, campaign.id, request.params.recipientId);
      if (events === null) throw new AppError('not_found');
      return {
        count: events.length,
        results: events.map((e) => ({
          ...e,
          occurred_at: iso(e.occurred_at),
          reason_text: reasonText(e.reason),
          field_names: fieldNames(e.field_names),
          reclassified_at: isoOrNull(e.reclassified_at),
        })),
      };
    },
  );
};
