import { sql } from 'kysely';
import { dialectOf, openDatabase } from '../src/core/db/database.js';
import { messageInScope } from '../src/core/db/group-scope.js';
import { enrolledPeopleByName } from '../src/modules/training/enrollments/enrollments.repository.js';

/**
 * The plans of a role limited to groups' per-person lists (docs/roles.md), on a database that
 * `bench/admin-lists.ts --keep` left: `node --import tsx bench/scope-explain.ts <url>`.
 */
const url = process.argv[2] as string;
const database = openDatabase(url);
const db = database.db;
const postgres = dialectOf(db) === 'postgres';
const account = await db.selectFrom('accounts').select('id').orderBy('id').executeTakeFirstOrThrow();
const campaign = await db.selectFrom('training_campaigns').select('id').executeTakeFirstOrThrow();
const scope = await db.selectFrom('admin_role_groups').select('group_id').executeTakeFirstOrThrow();
const groups = [scope.group_id];
const filter = { campaignId: campaign.id, dueAt: null, now: Date.now(), groups };
const queries = {
  "training campaign's people by name, page 2,000 (walk)": enrolledPeopleByName(
    db,
    account.id,
    filter,
    'walk',
  )
    .limit(25)
    .offset(49_975),
  'outbox page 1': db
    .selectFrom('messages as m')
    .select('m.id')
    .where('m.account_id', '=', account.id)
    .where(messageInScope(groups, account.id, 'm', dialectOf(db)))
    .orderBy('m.id', 'desc')
    .limit(25),
  'outbox count': db
    .selectFrom('messages as m')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('m.account_id', '=', account.id)
    .where(messageInScope(groups, account.id, 'm', dialectOf(db))),
};
for (const [label, query] of Object.entries(queries)) {
  const c = query.compile();
  const explain = postgres ? 'explain (analyze, costs off, timing off, summary on)' : 'explain query plan';
  const rows = await sql
    .raw(`${explain} ${c.sql}`)
    .execute(db)
    .catch(async () => {
      // Parameters: inline them for EXPLAIN.
      let text = c.sql;
      c.parameters.forEach((p, i) => {
        text = text.replace(
          postgres ? new RegExp(`\\$${i + 1}(?!\\d)`) : '?',
          typeof p === 'string' ? `'${p}'` : String(p),
        );
      });
      if (!postgres) {
        let j = 0;
        text = c.sql.replace(/\?/g, () => {
          const p = c.parameters[j++];
          return typeof p === 'string' ? `'${p}'` : String(p);
        });
      }
      return sql.raw(`${explain} ${text}`).execute(db);
    });
  console.log(`\n### ${label}\n`);
  for (const r of rows.rows as Record<string, unknown>[])
    console.log(postgres ? r['QUERY PLAN'] : `${r.id} ${r.parent} ${r.detail}`);
}
await database.close();
