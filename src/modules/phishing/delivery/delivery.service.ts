import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import { findPhishingSettings } from '../settings/settings.repository.js';
import { hostOfUrl } from '../settings/settings.sender.service.js';
import { SIMULATION_HEADER } from '../simulation/simulation.links.model.js';
import { sendingDomains, smtpHostOf } from './delivery.model.js';
import {
  campaignsThatMaySend,
  findTestSend,
  hitsOfTestSends,
  latestTestSends,
  type TestHitRow,
  type TestSendRow,
} from './delivery.repository.js';

/** What the operator set that the sheet shows. */
export interface DeliverySetup {
  /** PHISH_URL, else PUBLIC_URL, else the listening address. */
  phishBase: string;
  /** PHISHING_SENDING_IPS, normalised. */
  sendingIps: string[];
  smtpUrl: string | undefined;
}

export interface DeliverySheet {
  sending_domains: { domain: string; sources: string[] }[];
  sending_ips: string[];
  smtp_host: string | null;
  simulation_urls: string[];
  simulation_header: string;
}

/**
 * The values an account's mail system needs to let its simulations through: the domains they
 * come from (the account's and every campaign's that may still send), the relay's addresses, the
 * simulation links' host, and the account's simulation header.
 */
export async function deliverySheet(db: Db, accountId: number, setup: DeliverySetup): Promise<DeliverySheet> {
  const settings = await findPhishingSettings(db, accountId);
  const phishHost = hostOfUrl(setup.phishBase) || 'vigil.invalid';
  const campaigns = await campaignsThatMaySend(db, accountId);
  return {
    sending_domains: sendingDomains(settings.sender_domain, phishHost, campaigns),
    sending_ips: setup.sendingIps,
    smtp_host: smtpHostOf(setup.smtpUrl),
    simulation_urls: [`${phishHost}/*`],
    simulation_header: settings.simulation_header ?? SIMULATION_HEADER,
  };
}

export interface TestSendView extends TestSendRow {
  hit_list: TestHitRow[];
}

/** The account's latest test sends with their hits, newest first. */
export async function listTestSends(db: Db, accountId: number, limit = 10): Promise<TestSendView[]> {
  const sends = await latestTestSends(db, accountId, limit);
  const hits = await hitsOfTestSends(
    db,
    accountId,
    sends.map((s) => s.id),
  );
  return sends.map((s) => ({ ...s, hit_list: hits.filter((h) => h.test_send_id === s.id) }));
}

/** One test send of the account with its hits; another account's is not found. */
export async function getTestSend(db: Db, accountId: number, id: number): Promise<TestSendView> {
  const send = await findTestSend(db, accountId, id);
  if (!send) throw new AppError('test_send_not_found');
  return { ...send, hit_list: await hitsOfTestSends(db, accountId, [id]) };
}
