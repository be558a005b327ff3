import type { Db } from '../../../core/db/database.js';
import { parseScannerNetworks, type ScannerNetwork } from '../simulation/simulation.scanners.model.js';
import { scannerNetworksOf as storedScannerNetworks } from './settings.repository.js';

/**
 * The account's scanner networks parsed, for classifying tracking hits. Cached per process for
 * a few seconds: a tracking burst reads them once, and a change shows within CACHE_MS.
 */

const CACHE_MS = 5_000;
const cache = new Map<string, { at: number; networks: ScannerNetwork[] }>();

export async function parsedScannerNetworksOf(
  db: Db,
  accountId: number,
  now = Date.now(),
): Promise<ScannerNetwork[]> {
  const key = `${accountId}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS && cacheDb === db) return hit.networks;
  if (cacheDb !== db) {
    cache.clear();
    cacheDb = db;
  }
  const networks = parseScannerNetworks(await storedScannerNetworks(db, accountId)).networks;
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: now, networks });
  return networks;
}

let cacheDb: Db | undefined;

/** Forget the cached networks (tests that change the setting behind the cache). */
export function forgetScannerNetworks(): void {
  cache.clear();
}
