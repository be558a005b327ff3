import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { BROWSER, seedPhishingCampaign } from '../phishing.js';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import type { Side } from './world.js';

/** The admin API's phishing event rows: a recipient's timeline and the reclassification of an event. */

interface Clicked {
  campaignId: number;
  recipientId: number;
  eventId: number;
}

let serial = 0;

/** A running campaign of the side's account whose first recipient clicked (as a person). */
async function clicked(app: FastifyInstance, side: Side): Promise<Clicked> {
  const c = await seedPhishingCampaign(app, side.accountId, { people: 1, landing: 'teach_on_click' });
  const person = c.people[0]!;
  await app.inject({
    method: 'GET',
    url: `/v/${person.token}`,
    headers: { 'user-agent': BROWSER },
    // An address of its own: one address clicking many people's links is a scanner.
    remoteAddress: `2001:db8::${(++serial).toString(16)}`,
  });
  const event = await app.db
    .selectFrom('phishing_events')
    .select('id')
    .where('recipient_id', '=', person.id)
    .executeTakeFirstOrThrow();
  return { campaignId: c.campaignId, recipientId: person.id, eventId: Number(event.id) };
}

const base = (side: Side, o: Clicked) => `${acct(side)}/phishing/campaigns/${o.campaignId}`;
const timeline = (side: Side, o: Clicked) => `${base(side, o)}/recipients/${o.recipientId}/events`;
const missing = (_o: Clicked): Clicked => ({ campaignId: NEVER, recipientId: NEVER, eventId: NEVER });

export const adminPhishingEventRows: Row[] = [
  row<Clicked>({
    route: 'GET /admin/api/accounts/:accountId/phishing/campaigns/:campaignId/recipients/:recipientId/events',
    as: 'admin',
    object: (w, side) => clicked(w.app, side),
    call: (side, o) => ({ url: timeline(side, o) }),
    success: {
      status: 200,
      check: (res) => expect(res.json().events.map((e: { kind: string }) => e.kind)).toEqual(['clicked']),
    },
    otherAccount: {
      kind: 'object',
      notFound: 'phishing_recipient_not_found',
      missing,
      // Their recipient under one's own campaign is as unknown.
      pairs: () => [],
    },
    invalid: na('no input but the path ids (text that is no id is a 404, like any unknown id)'),
  }),
  row<Clicked>({
    route: 'POST /admin/api/accounts/:accountId/phishing/campaigns/:campaignId/events/:eventId/reclassify',
    as: 'admin',
    object: (w, side) => clicked(w.app, side),
    call: (side, o) => ({
      url: `${base(side, o)}/events/${o.eventId}/reclassify`,
      payload: { classification: 'automated', reason: 'Our gateway’s sandbox' },
    }),
    success: {
      status: 200,
      check: (res) =>
        expect(res.json()).toMatchObject({
          classification: 'automated',
          reclassification: { original_classification: 'human', reason: 'Our gateway’s sandbox' },
        }),
    },
    read: (side, o) => timeline(side, o),
    otherAccount: { kind: 'object', notFound: 'phishing_event_not_found', missing },
    invalid: {
      call: (side, o) => ({
        url: `${base(side, o)}/events/${o.eventId}/reclassify`,
        payload: { classification: 'automated', reason: '' },
      }),
    },
  }),
];
