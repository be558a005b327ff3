import type { Db } from '../../db/database.js';
import { FieldErrorCollector } from '../../errors.js';
import { getAccount } from '../accounts/accounts.service.js';
import { checkScannerNetworks } from './phishing.scanners.js';
import {
  findPhishingSettings,
  type PhishingSettingsRow,
  saveScannerNetworks,
} from './phishing.settings.repository.js';
import { forgetScannerNetworks } from './phishing.settings-lookup.js';

/** An account's phishing settings: for now, the networks its mail security products fetch from. */

export type PhishingSettings = PhishingSettingsRow;

export function getPhishingSettings(db: Db, accountId: number): Promise<PhishingSettings> {
  return findPhishingSettings(db, accountId);
}

/**
 * Replaces the scanner networks. Lines are kept as the administrator wrote them (trimmed, empty
 * ones dropped), `#` comments included, so a network stays labelled with its product; every
 * line is checked by `parseScannerNetworks`, and a bad one is an error under
 * `scanner_networks[<its index>]`.
 */
export async function updatePhishingSettings(
  db: Db,
  accountId: number,
  input: { scanner_networks: unknown },
): Promise<PhishingSettings> {
  const errors = new FieldErrorCollector();
  checkScannerNetworks(errors, 'scanner_networks', input.scanner_networks);
  errors.throwIfAny();
  const lines = (input.scanner_networks as string[]).map((l) => l.trim()).filter((l) => l !== '');
  await getAccount(db, accountId);
  await saveScannerNetworks(db, accountId, lines, Date.now());
  // This process classifies with the new networks at once (others within the cache's seconds).
  forgetScannerNetworks();
  return findPhishingSettings(db, accountId);
}
