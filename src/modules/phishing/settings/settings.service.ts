import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { FieldErrorCollector } from '../../../core/errors.js';
import { getAccount } from '../../access/index.js';
import { checkScannerNetworks } from '../simulation/simulation.scanners.model.js';
import { forgetScannerNetworks } from './settings.lookup.service.js';
import {
  findPhishingSettings,
  type PhishingSettingsRow,
  savePhishingSettings,
} from './settings.repository.js';
import {
  checkSenderAddress,
  checkSenderDomain,
  checkSenderName,
  checkSimulationHeader,
  type SenderPolicy,
} from './settings.sender.model.js';

/**
 * An account's phishing settings: the networks its mail security products fetch from, and the
 * sender its campaigns use unless they choose their own.
 */

export type PhishingSettings = PhishingSettingsRow;

export function getPhishingSettings(db: Db, accountId: number): Promise<PhishingSettings> {
  return findPhishingSettings(db, accountId);
}

/**
 * Changes the settings sent (a field left out keeps its value). Scanner network lines are kept
 * as the administrator wrote them (trimmed, empty ones dropped), `#` comments included, so a
 * network stays labelled with its product; every line is checked by `parseScannerNetworks`, and
 * a bad one is an error under `scanner_networks[<its index>]`. The default sender's parts are
 * checked as a campaign's are (settings.sender.model.ts); null or '' clears one. The simulation
 * header is an `X-` name of the account's choosing (null or '' restores `X-Vigil-Simulation`):
 * simulations sent from then on carry it, and every report path reads it.
 */
export async function updatePhishingSettings(
  db: Db,
  accountId: number,
  input: {
    scanner_networks?: unknown;
    sender_name?: unknown;
    sender_address?: unknown;
    sender_domain?: unknown;
    simulation_header?: unknown;
  },
  policy: Pick<SenderPolicy, 'allowLocal'>,
): Promise<PhishingSettings> {
  const errors = new FieldErrorCollector();
  if (input.scanner_networks !== undefined) {
    checkScannerNetworks(errors, 'scanner_networks', input.scanner_networks);
  }
  const sender_name = checkSenderName(errors, 'sender_name', input.sender_name);
  const sender_address = checkSenderAddress(errors, 'sender_address', input.sender_address);
  const sender_domain = checkSenderDomain(errors, 'sender_domain', input.sender_domain, policy.allowLocal);
  const simulation_header = checkSimulationHeader(errors, 'simulation_header', input.simulation_header);
  errors.throwIfAny();
  const lines =
    input.scanner_networks === undefined
      ? undefined
      : (input.scanner_networks as string[]).map((l) => l.trim()).filter((l) => l !== '');
  await getAccount(db, accountId);
  const changes = {
    ...(lines !== undefined && { scanner_networks: lines }),
    ...(sender_name !== undefined && { sender_name }),
    ...(sender_address !== undefined && { sender_address }),
    ...(sender_domain !== undefined && { sender_domain }),
    ...(simulation_header !== undefined && { simulation_header }),
  };
  await db.transaction().execute(async (trx) => {
    const before = await findPhishingSettings(trx, accountId);
    await savePhishingSettings(trx, accountId, changes, Date.now());
    await recordAudit(trx, {
      accountId,
      action: 'phishing_settings.updated',
      object: { type: 'phishing_settings', id: accountId },
      changes: diffFields(before, await findPhishingSettings(trx, accountId), {
        fields: Object.keys(changes),
      }),
    });
  });
  // This process classifies with the new networks at once (others within the cache's seconds).
  if (lines !== undefined) forgetScannerNetworks();
  return findPhishingSettings(db, accountId);
}
