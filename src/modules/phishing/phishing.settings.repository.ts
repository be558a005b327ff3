import type { Db } from '../../db/database.js';

/** An account's phishing settings (`phishing_settings`, one row per account, made on first save). */

export interface PhishingSettingsRow {
  scanner_networks: string[];
  updated_at: number | null;
}

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export async function findPhishingSettings(db: Db, accountId: number): Promise<PhishingSettingsRow> {
  const row = await db
    .selectFrom('phishing_settings')
    .select(['scanner_networks', 'updated_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row
    ? { scanner_networks: parseList(row.scanner_networks), updated_at: row.updated_at }
    : { scanner_networks: [], updated_at: null };
}

/**
 * The account's scanner networks as stored (normalised CIDR strings); none when never set. The
 * tracking routes read them with `parseScannerNetworks` (phishing.scanners.ts).
 */
export async function scannerNetworksOf(db: Db, accountId: number): Promise<string[]> {
  return (await findPhishingSettings(db, accountId)).scanner_networks;
}

export async function saveScannerNetworks(
  db: Db,
  accountId: number,
  networks: string[],
  now: number,
): Promise<void> {
  const scanner_networks = JSON.stringify(networks);
  await db
    .insertInto('phishing_settings')
    .values({ account_id: accountId, scanner_networks, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ scanner_networks, updated_at: now }))
    .execute();
}
