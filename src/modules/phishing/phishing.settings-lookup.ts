import type { Db } from '../../db/database.js';
import { parseScannerNetworks, type ScannerNetwork } from './phishing.scanners.js';

/**
 * The account's scanner networks, for classifying tracking hits (area C's private reader of
 * `phishing_settings.scanner_networks`; the settings module's `scannerNetworksOf` replaces it
 * when the branches meet). Cached per process for a few seconds: a tracking burst reads it once.
 */

const CACHE_MS = 5_000;
const cache = new Map<string, { at: number; networks: ScannerNetwork[] }>();

export async function scannerNetworksOf(
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
  const row = await db
    .selectFrom('phishing_settings')
    .select('scanner_networks')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  let lines: unknown = [];
  try {
    lines = row ? JSON.parse(row.scanner_networks) : [];
  } catch {
    lines = [];
  }
  const networks = Array.isArray(lines) ? parseScannerNetworks(lines.map(String)).networks : [];
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: now, networks });
  return networks;
}

let cacheDb: Db | undefined;

/** Forget the cached networks (tests that change the setting behind the cache). */
export function forgetScannerNetworks(): void {
  cache.clear();
}
