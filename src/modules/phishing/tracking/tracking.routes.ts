import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { acceptBodies, type BodyPolicy, FORM_BODY_LIMIT } from '../../../core/http/bodies.js';
import { linkTo, phishBaseUrl, publicBaseUrl } from '../../../core/http/links.js';
import { recordTestHit, trackedTestSend } from '../delivery/delivery.hits.commands.js';
import { isTestToken } from '../delivery/delivery.model.js';
import {
  campaignChangedSince,
  campaignChangesSeen,
} from '../simulation/simulation.campaign-changes.service.js';
import type { HitKind } from '../simulation/simulation.classify.model.js';
import { isSimulationToken, submitPath, teachablePath } from '../simulation/simulation.links.model.js';
import {
  type RecipientWithCampaign,
  recipientByTokenOfAnyAccount,
} from '../simulation/simulation.recipients.repository.js';
import { LANDING_PAGE_HEADERS } from '../templates/templates.landing.presenter.js';
import { type TrackedRoute, TrackingLimiter, type TrackingLimits } from './tracking.limiter.service.js';
import { landingPageOf, teachablePageOf } from './tracking.service.js';
import { createStepMachine, type StepMachine } from './tracking.steps.batch.commands.js';
import { recordStep } from './tracking.steps.commands.js';
import {
  genericTeachablePage,
  TEACHABLE_PAGE_HEADERS,
  teachablePageHeaders,
  testSendPage,
} from './tracking.teachable.presenter.js';

/**
 * The simulation's public routes on PHISH_URL (docs/phishing-plan.md, "Addresses and tokens"):
 * the open-tracking image, the click (landing or teachable page), the form, a button press and
 * the teachable page. The token in the address is the credential (never logged). A wrong,
 * malformed or unknown token answers the same generic page, 404, whatever the route; the
 * image is always the same 1×1 PNG. Submitted values are never stored, logged or echoed: the
 * form's body is reduced to its field names while it is parsed.
 */

const TokenParams = Type.Object({ token: Type.String() });
const LINK = { secretParams: ['token'] };

/** A transparent 1×1 PNG. */
export const TRACKING_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Never cached, indexed or passed on as a referrer: every answer of these routes carries them. */
const NOT_KEPT_HEADERS = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
} as const;
const IMAGE_HEADERS = { 'content-type': 'image/png', ...NOT_KEPT_HEADERS } as const;

/** The most field names kept from one submission, and the longest name. */
const FIELD_NAMES_MAX = 50;
const FIELD_NAME_MAX = 100;
/** What a landing page's form (any encoding an HTML form has) or button may post; nothing else is read. */
const LANDING_BODY: BodyPolicy = {
  accepts: {
    'application/x-www-form-urlencoded': FORM_BODY_LIMIT,
    'multipart/form-data': FORM_BODY_LIMIT,
    'text/plain': FORM_BODY_LIMIT,
  },
};

/** The names of a form's fields, in order, once each; the values are dropped here and go nowhere. */
export function fieldNamesOf(body: string): string[] {
  const names = new Set<string>();
  for (const pair of body.split('&')) {
    if (names.size >= FIELD_NAMES_MAX) break;
    const raw = pair.split('=', 1)[0] ?? '';
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      name = raw;
    }
    names.add(name.replace(/[\p{Cc}]/gu, '').slice(0, FIELD_NAME_MAX));
  }
  return [...names].filter((n) => n !== '');
}

/** A GET of the link, or a HEAD or prefetch of it (which uses up no first-click exemption). */
function clickOrProbe(request: FastifyRequest): TrackedRoute {
  const { headers } = request;
  return request.method === 'GET' && headers['sec-purpose'] === undefined && headers.purpose === undefined
    ? 'click'
    : 'probe';
}

/** How long a token's recipient (and the pages rendered for it) is reused before it is read again. */
export const TRACKED_RECIPIENT_TTL_MS = 3_000;

/** The columns a step moves: a cached recipient is replaced when one of them changed. */
const MOVING = [
  'campaign_status',
  'status',
  'sent_at',
  'opened_at',
  'clicked_at',
  'submitted_at',
  'reported_at',
  'training_assigned_at',
  'enrollment_id',
] as const;

/** What the responses to one token need, kept for a few seconds: a repeat hit never waits on a read. */
interface Tracked {
  found: RecipientWithCampaign;
  /** Pages already rendered for this recipient as it is (`landing`, `teach:0`, `teach:1`). */
  pages: Map<string, string>;
  /** `campaignChangesSeen()` before it was read: a later status change here makes it stale. */
  seen: number;
}

export interface TrackingOptions extends TrackingLimits {
  /** The token cache's TTL (0: no cache) and size. */
  cacheTtlMs?: number;
  cacheMax?: number;
}

export const phishingTrackingRoutes: FastifyPluginAsyncTypebox<TrackingOptions> = async (app, options) => {
  // Hits of one event-loop turn share a transaction (group commit): see StepWriter.
  const machine: StepMachine = createStepMachine({ batch: app.db });
  const limiter = new TrackingLimiter(options);
  // Per process. The database decides every step (the write re-reads the row under lock), so a
  // stale entry only shows, for at most the TTL, the page of what the recipient was: the steps this
  // process records replace it at once, another process's or a campaign's change within the TTL.
  const tracked = new LRUCache<string, Tracked>({
    max: options.cacheMax ?? 50_000,
    ttl: options.cacheTtlMs ?? TRACKED_RECIPIENT_TTL_MS,
  });

  acceptBodies(app, () => LANDING_BODY);
  // A landing form: its field names only. Fastify never logs bodies; this keeps no value either.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, { fieldNames: fieldNamesOf(body as string) }),
  );
  // A multipart or text/plain form, a button's POST: read (within the limit) and dropped.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, (_request, _body, done) =>
    done(null, { fieldNames: [] }),
  );

  const generic = (reply: FastifyReply, status = 404) =>
    reply.code(status).headers(TEACHABLE_PAGE_HEADERS).send(genericTeachablePage());

  /**
   * The recipient of a token, or null for a token that is none, or 'limited' (the Retry-After
   * header set) past the address's budgets (tracking.limiter.service.ts). A token this process
   * does not hold is read only while the address may still try unknown tokens.
   */
  async function lookUp(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    route: TrackedRoute,
  ): Promise<RecipientWithCampaign | null | 'limited'> {
    const limited = (wait: number | null) => {
      if (wait !== null) reply.header('retry-after', String(wait));
      return wait !== null;
    };
    const address = request.ip;
    if (!isSimulationToken(token)) return limited(limiter.unknown(address)) ? 'limited' : null;
    const known = tracked.get(token);
    let found: RecipientWithCampaign | null;
    if (known && !campaignChangedSince(known.found.campaign_id, known.seen)) found = known.found;
    else {
      if (limited(limiter.beforeRead(address, route))) return 'limited';
      const seen = campaignChangesSeen();
      found = (await recipientByTokenOfAnyAccount(app.db, token)) ?? null;
      if (found === null) return limited(limiter.unknown(address)) ? 'limited' : null;
      if (tracked.ttl > 0) tracked.set(token, { found, pages: new Map(), seen });
    }
    return limited(limiter.known(address, token, route)) ? 'limited' : found;
  }

  /**
   * A test send's image or link (Phishing settings' test of delivery): told from a recipient's
   * token by its length alone, read under the same budgets, and recorded in the test send's own
   * hits, never a campaign's. True when recorded; false for a token that is none (answered as
   * an unknown one); 'limited' past the address's budgets.
   */
  async function testHit(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    route: TrackedRoute,
    kind: 'open' | 'click',
  ): Promise<boolean | 'limited'> {
    const limited = (wait: number | null) => {
      if (wait !== null) reply.header('retry-after', String(wait));
      return wait !== null;
    };
    const address = request.ip;
    if (limited(limiter.beforeRead(address, route))) return 'limited';
    const send = await trackedTestSend(app.db, token);
    if (send === null) return limited(limiter.unknown(address)) ? 'limited' : false;
    if (limited(limiter.known(address, token, route))) return 'limited';
    await recordTestHit(app.db, send, {
      kind,
      at: Date.now(),
      method: request.method,
      headers: request.headers,
      clientAddress: request.ip,
    });
    return true;
  }

  const record = async (
    request: FastifyRequest,
    found: RecipientWithCampaign,
    kind: HitKind,
    fieldNames?: string[],
  ) => {
    const seen = campaignChangesSeen();
    const result = await recordStep(app.db, machine, found, {
      kind,
      at: Date.now(),
      method: request.method,
      headers: request.headers,
      clientAddress: request.ip,
      ...(fieldNames ? { fieldNames } : {}),
    });
    // The recipient as the committed step left it replaces the cached one (and its pages) when it moved.
    const after = result.recipient;
    if (after && tracked.ttl > 0 && MOVING.some((column) => after[column] !== found[column])) {
      const moved = { ...found, ...after };
      tracked.set(found.token, { found: moved, pages: new Map(), seen });
      return { ...result, found: moved };
    }
    return { ...result, found };
  };

  /**
   * A page rendered once per cached recipient. Not the teachable page of a person assigned a
   * course: it shows where their learner link stands (sent, expired), which moves with the mail.
   */
  async function pageOf(
    found: RecipientWithCampaign,
    key: string,
    render: () => Promise<string | null>,
  ): Promise<string | null> {
    const entry = tracked.get(found.token);
    const cached = entry?.found === found ? entry.pages.get(key) : undefined;
    if (cached !== undefined) return cached;
    const page = await render();
    if (page !== null && entry?.found === found && key !== 'teach:1') entry.pages.set(key, page);
    return page;
  }

  async function sendTeachable(reply: FastifyReply, found: RecipientWithCampaign, trainingAssigned: boolean) {
    const assigned = trainingAssigned || found.training_assigned_at !== null;
    const learnerBase = publicBaseUrl(app);
    const page = await pageOf(found, assigned ? 'teach:1' : 'teach:0', () =>
      teachablePageOf(app.db, found, {
        phishBase: phishBaseUrl(app),
        trainingAssigned: assigned,
        learnerBase,
      }),
    );
    if (page === null) return generic(reply);
    // Its one form, "Email me a new link", posts to the learner pages (PUBLIC_URL).
    return reply.code(200).headers(teachablePageHeaders(learnerBase)).send(page);
  }

  app.get(
    '/t/:token',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const param = request.params.token;
      const token = param.endsWith('.png') ? param.slice(0, -4) : '';
      if (isTestToken(token)) {
        const tested = await testHit(request, reply, token, 'open', 'open');
        return reply
          .code(tested === 'limited' ? 429 : 200)
          .headers(IMAGE_HEADERS)
          .send(TRACKING_PIXEL);
      }
      const found = await lookUp(request, reply, token, 'open');
      if (found !== 'limited' && found !== null) await record(request, found, 'open');
      return reply
        .code(found === 'limited' ? 429 : 200)
        .headers(IMAGE_HEADERS)
        .send(TRACKING_PIXEL);
    },
  );

  app.get(
    '/v/:token',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const route = clickOrProbe(request);
      if (isTestToken(request.params.token)) {
        const tested = await testHit(request, reply, request.params.token, route, 'click');
        if (tested === 'limited') return generic(reply, 429);
        if (tested === false) return generic(reply);
        return reply.code(200).headers(TEACHABLE_PAGE_HEADERS).send(testSendPage());
      }
      const found = await lookUp(request, reply, request.params.token, route);
      if (found === 'limited') return generic(reply, 429);
      if (found === null) return generic(reply);
      const { found: now, ...result } = await record(request, found, 'click');
      return sendClick(reply, now, result.trainingAssigned === true);
    },
  );

  async function sendClick(reply: FastifyReply, found: RecipientWithCampaign, trainingAssigned: boolean) {
    if (found.campaign_status === 'running' && found.landing === 'teach_on_submit') {
      const submitUrl = linkTo(phishBaseUrl(app), submitPath(found.token));
      const landing = await pageOf(found, 'landing', () => landingPageOf(app.db, found, submitUrl));
      if (landing !== null) return reply.code(200).headers(LANDING_PAGE_HEADERS).send(landing);
    }
    return sendTeachable(reply, found, trainingAssigned);
  }

  app.post(
    '/v/:token',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const found = await lookUp(request, reply, request.params.token, 'submit');
      if (found === 'limited') return generic(reply, 429);
      if (found === null) return generic(reply);
      const body = request.body as { fieldNames?: string[] } | undefined;
      await record(request, found, 'submit', body?.fieldNames ?? []);
      // Back to a GET (no resubmission on reload), on the same origin (the landing CSP's form-action 'self').
      return reply.code(303).headers(NOT_KEPT_HEADERS).header('location', teachablePath(found.token)).send();
    },
  );

  app.post(
    '/v/:token/i',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const found = await lookUp(request, reply, request.params.token, 'interaction');
      // Refused, it says so as the other pages do (an address spraying made-up tokens gets here).
      if (found === 'limited') return generic(reply, 429);
      if (found !== null) await record(request, found, 'interaction');
      return reply.code(204).headers(NOT_KEPT_HEADERS).send();
    },
  );

  app.get(
    '/v/:token/learn',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const found = await lookUp(request, reply, request.params.token, 'learn');
      if (found === 'limited') return generic(reply, 429);
      if (found === null) return generic(reply);
      return sendTeachable(reply, found, false);
    },
  );
};
