import type { Db } from '../../../core/db/database.js';

/** An account's phishing settings (`phishing_settings`, one row per account, made on first save). */

export interface PhishingSettingsRow {
  scanner_networks: string[];
  /** The account's default sender name, address (before the @) and domain; null: none chosen. */
  sender_name: string | null;
  sender_address: string | null;
  sender_domain: string | null;
  /** The header simulations carry; null: SIMULATION_HEADER. */
  simulation_header: string | null;
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
    .select([
      'scanner_networks',
      'sender_name',
      'sender_address',
      'sender_domain',
      'simulation_header',
      'updated_at',
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row
    ? {
        scanner_networks: parseList(row.scanner_networks),
        sender_name: row.sender_name,
        sender_address: row.sender_address,
        sender_domain: row.sender_domain,
        simulation_header: row.simulation_header,
        updated_at: row.updated_at,
      }
    : {
        scanner_networks: [],
        sender_name: null,
        sender_address: null,
        sender_domain: null,
        simulation_header: null,
        updated_at: null,
      };
}

/**
 * The account's scanner networks as stored (normalised CIDR strings); none when never set. The
 * tracking routes read them with `parseScannerNetworks` (simulation.scanners.model.ts).
 */
export async function scannerNetworksOf(db: Db, accountId: number): Promise<string[]> {
  return (await findPhishingSettings(db, accountId)).scanner_networks;
}

/** Saves the settings given (a field left out keeps its value). */
export async function savePhishingSettings(
  db: Db,
  accountId: number,
  values: {
    scanner_networks?: string[];
    sender_name?: string | null;
    sender_address?: string | null;
    sender_domain?: string | null;
    simulation_header?: string | null;
  },
  now: number,
): Promise<void> {
  const { scanner_networks, ...sender } = values;
  const set = {
    ...(scanner_networks !== undefined && { scanner_networks: JSON.stringify(scanner_networks) }),
    ...sender,
    updated_at: now,
  };
  await db
    .insertInto('phishing_settings')
    .values({ account_id: accountId, ...set })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(set))
    .execute();
}

/** The account's simulation header as stored; null: the default. */
export async function simulationHeaderOf(db: Db, accountId: number): Promise<string | null> {
  const row = await db
    .selectFrom('phishing_settings')
    .select('simulation_header')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.simulation_header ?? null;
}
