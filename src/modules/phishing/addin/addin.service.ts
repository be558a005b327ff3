import { readFile } from 'node:fs/promises';
import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import { fromProjectRoot } from '../../../core/paths.js';
import { authenticateKey } from '../../access/index.js';

/** The only permissions a key the add-in carries may hold: it can report, and nothing else. */
const REPORT_KEY_PERMISSIONS = ['reports:write'];

/**
 * The account of a report key: active (known, not revoked, not expired) and holding exactly
 * `reports:write`; anything else is `report_key_not_found`. A manifest built into an add-in
 * carries its key to every mailbox of the organisation, so a key that can do more never goes
 * into one. Asked of the database every time: a revoked key stops at once.
 */
export async function accountOfReportKey(db: Db, key: string, now = Date.now()): Promise<number> {
  const found = await authenticateKey(db, key, now);
  const onlyReports =
    found !== null &&
    found.permissions.length === REPORT_KEY_PERMISSIONS.length &&
    found.permissions.every((permission) => REPORT_KEY_PERMISSIONS.includes(permission));
  if (!found || !onlyReports) throw new AppError('report_key_not_found');
  return found.accountId;
}

/** The add-in's files of content/addin/outlook/ (the icons), read once. */
const files = new Map<string, Promise<Buffer>>();
export function addinFile(name: string): Promise<Buffer> {
  let file = files.get(name);
  if (!file) {
    file = readFile(fromProjectRoot('content', 'addin', 'outlook', name));
    files.set(name, file);
  }
  return file;
}

/**
 * The task pane's script, built by web/build.mjs from web/addin/ into dist/web/addin/, or null
 * when the web interface is not built. Read at every request, as the SPA's page is (small, and a
 * rebuild shows at once).
 */
export async function taskpaneScript(): Promise<Buffer | null> {
  return readFile(fromProjectRoot('dist', 'web', 'addin', 'addin.js')).catch(() => null);
}
