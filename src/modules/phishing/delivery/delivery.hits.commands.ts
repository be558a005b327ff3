import type { Db } from '../../../core/db/database.js';
import { parsedScannerNetworksOf } from '../settings/settings.lookup.service.js';
import {
  classifyHit,
  DEFAULT_AUTOMATED_WINDOW_SECONDS,
  type HitHeaders,
} from '../simulation/simulation.classify.model.js';
import { normalizeClientAddress } from '../simulation/simulation.scanners.model.js';
import { TEST_TRACKED_MS } from './delivery.model.js';
import { insertTestHit, testSendByToken } from './delivery.repository.js';

/** A test send as the tracking routes hold it. */
export type TrackedTestSend = NonNullable<Awaited<ReturnType<typeof testSendByToken>>>;

/** The test send of a token (of the shape isTestToken checks), while its hits are recorded; else null. */
export async function trackedTestSend(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<TrackedTestSend | null> {
  const send = await testSendByToken(db, token);
  return send && now - send.created_at < TEST_TRACKED_MS ? send : null;
}

const USER_AGENT_MAX = 512;

/**
 * Records a hit on a test send's image or link, classified by the simulations' classifier (the
 * request's evidence, the account's scanner networks, the delivery window after the SMTP server
 * accepted it), in its own table: no campaign's figures move.
 */
export async function recordTestHit(
  db: Db,
  send: TrackedTestSend,
  hit: { kind: 'open' | 'click'; at: number; method: string; headers: HitHeaders; clientAddress: string },
): Promise<void> {
  const clientAddress = hit.clientAddress ? normalizeClientAddress(hit.clientAddress) : '';
  const verdict = classifyHit(
    { ...hit, clientAddress },
    {
      deliveredAt: send.delivered_at,
      settings: {
        automatedWindowSeconds: DEFAULT_AUTOMATED_WINDOW_SECONDS,
        scannerNetworks: await parsedScannerNetworksOf(db, send.account_id),
      },
      recentRecipientsFromAddress: 1,
    },
  );
  const userAgent = hit.headers['user-agent'];
  await insertTestHit(db, send, {
    kind: hit.kind,
    method: hit.method.slice(0, 16),
    classification: verdict.classification,
    reason: verdict.reason,
    detail: verdict.detail ?? null,
    client_address: clientAddress || null,
    user_agent: typeof userAgent === 'string' && userAgent !== '' ? userAgent.slice(0, USER_AGENT_MAX) : null,
    occurred_at: hit.at,
  });
}
