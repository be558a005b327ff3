import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 21, item 9: reporting a phishing message has an access point of its own, `reports:write`
// (a report button's key reports and reads nothing). Until now a report needed `campaigns:write`:
// every key that holds it is also granted `reports:write`, so report buttons already deployed
// keep working. Keys made from now on are granted it explicitly. The permissions are a JSON list
// of strings; `reports:write` comes last in the order keys list them.

const REPORTS = 'reports:write';

interface KeyRow {
  id: number;
  permissions: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<KeyRow>`select id, permissions from api_keys
    where permissions like ${'%"campaigns:write"%'}`.execute(db);
  for (const row of rows) {
    const permissions = JSON.parse(row.permissions) as string[];
    if (!permissions.includes('campaigns:write') || permissions.includes(REPORTS)) continue;
    await sql`update api_keys set permissions = ${JSON.stringify([...permissions, REPORTS])}
      where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<KeyRow>`select id, permissions from api_keys
    where permissions like ${`%"${REPORTS}"%`}`.execute(db);
  for (const row of rows) {
    const permissions = (JSON.parse(row.permissions) as string[]).filter((p) => p !== REPORTS);
    await sql`update api_keys set permissions = ${JSON.stringify(permissions)} where id = ${row.id}`.execute(
      db,
    );
  }
}
