import { sql } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';

/**
 * Whether an administrator has a second factor (TOTP or a passkey). A stand-in, read straight
 * from the `admin_mfa_factors` table of the MFA module (`access/mfa`), until that module's
 * `hasSecondFactor(db, adminId)` replaces it: without the table, nobody has one.
 */
export async function hasSecondFactor(db: Db, adminId: number): Promise<boolean> {
  const exists =
    dialectOf(db) === 'postgres'
      ? await sql<{ t: string | null }>`select to_regclass('admin_mfa_factors')::text as t`.execute(db)
      : await sql<{
          t: string;
        }>`select name as t from sqlite_master where type = 'table' and name = 'admin_mfa_factors'`.execute(
          db,
        );
  if (!exists.rows[0]?.t) return false;
  const result = await sql<{
    one: number;
  }>`select 1 as one from admin_mfa_factors where admin_id = ${adminId} limit 1`.execute(db);
  return result.rows.length > 0;
}
