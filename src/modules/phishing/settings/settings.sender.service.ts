import type { Db } from '../../../core/db/database.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { findPhishingSettings } from './settings.repository.js';
import {
  isLoopbackHost,
  type SenderChoice,
  type SenderPolicy,
  senderDomainProblem,
} from './settings.sender.model.js';

/** The host of a base URL, without IPv6 brackets ('' when it is not a URL). */
export function hostOfUrl(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

/**
 * Where this server may send simulations from: the operator's PHISHING_ALLOW_LOCAL_SENDER, or
 * when unset, whether simulations' links (`phishBase`) point at this machine (a development
 * start: nobody else can receive its mail or follow its links).
 */
export function senderPolicyOf(allowLocalSender: boolean | undefined, phishBase: string): SenderPolicy {
  const host = hostOfUrl(phishBase);
  return { allowLocal: allowLocalSender ?? isLoopbackHost(host), defaultDomain: host || 'vigil.invalid' };
}

/** The account's default sender (Phishing settings). */
export async function accountSender(db: Db, accountId: number): Promise<SenderChoice> {
  const s = await findPhishingSettings(db, accountId);
  return { sender_name: s.sender_name, sender_address: s.sender_address, sender_domain: s.sender_domain };
}

/**
 * Checks the domain a campaign would send from (its own, else the account's, else PHISH_URL's
 * host) before it is scheduled or launched: a refused one is an error under `sender_domain`
 * saying where it came from and which setting allows it.
 */
export async function checkEffectiveSenderDomain(
  db: Db,
  accountId: number,
  campaignDomain: string | null,
  policy: SenderPolicy,
  errors: FieldErrorCollector,
): Promise<void> {
  const account = await accountSender(db, accountId);
  const domain = campaignDomain ?? account.sender_domain ?? policy.defaultDomain;
  const problem = senderDomainProblem(domain, policy.allowLocal);
  if (problem === null) return;
  const source =
    campaignDomain !== null
      ? 'the campaign’s sender domain'
      : account.sender_domain !== null
        ? 'the account’s default sender domain (Phishing settings)'
        : 'the host of PHISH_URL, used when no sender domain is set';
  errors.add(
    'sender_domain',
    `${domain} (${source}) ${problem.replace(/^must be/, 'is not allowed: a sender domain must be')}; set a sender domain on the campaign or in Phishing settings`,
  );
}
