import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// The audit log's journal on both databases (src/core/audit/audit.repository.ts).
//
// - `audit_pending.account_id`: the chain a journaled row belongs to. A row that has it holds in
//   `record` its canonical form after `[account_id,seq,` (the text its hash covers, the object's
//   id written in by the statement that inserted the object). A row without it was journaled
//   before this migration (SQLite only): `record` is the row's fields as JSON and `object_id` the
//   object's id.
// - PostgreSQL journals too now, in the insert's CTE, with the row's fields as columns beside the
//   text (the database hashes the text as it is and never parses it: not every JSON text is one
//   PostgreSQL accepts, `\u0000` say).
// - `vigil_audit_move(account, limit)` (PostgreSQL): locks the chain's head (made when missing),
//   appends up to `limit` of the chain's journaled rows to it in order, deletes them, and returns
//   how many. Every mover of a chain takes turns on its head; the rows are read by a statement
//   after the lock was had, so each is moved once. SQLite's movers run in the service (one
//   writer, no such function).

const FIELDS = [
  ['at', 'bigint'],
  ['actor_kind', 'text'],
  ['actor_id', 'text'],
  ['actor_label', 'text'],
  ['address', 'text'],
  ['request_id', 'text'],
  ['action', 'text'],
  ['object_type', 'text'],
  ['object_label', 'text'],
  ['changes', 'text'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .alterTable('audit_pending')
    .addColumn('account_id', postgres ? 'bigint' : 'integer')
    .execute();
  if (!postgres) return;
  for (const [name, type] of FIELDS) {
    await db.schema.alterTable('audit_pending').addColumn(name, type).execute();
  }
  await sql`create index audit_pending_account_idx on audit_pending (account_id, id)`.execute(db);
  await sql`create function vigil_audit_move(p_account bigint, p_limit integer) returns integer
language plpgsql as $$
declare
  head_seq bigint;
  head_hash text;
  p record;
  moved integer := 0;
  ids bigint[] := '{}';
begin
  insert into audit_heads (account_id, seq, hash) values (p_account, 0, repeat('0', 64))
    on conflict (account_id) do update set seq = audit_heads.seq
    returning seq, hash into head_seq, head_hash;
  for p in
    select * from audit_pending where account_id = p_account order by id limit p_limit
  loop
    head_seq := head_seq + 1;
    insert into audit_log (account_id, seq, at, actor_kind, actor_id, actor_label, address, request_id,
        action, object_type, object_id, object_label, changes, prev_hash, hash)
      values (p_account, head_seq, p.at, p.actor_kind, p.actor_id, p.actor_label, p.address, p.request_id,
        p.action, p.object_type, p.object_id, p.object_label, p.changes, head_hash,
        encode(sha256(convert_to(head_hash || E'\\n' || '[' || p_account || ',' || head_seq || ',' || p.record, 'UTF8')), 'hex'))
      returning hash into head_hash;
    ids := ids || p.id;
    moved := moved + 1;
  end loop;
  if moved > 0 then
    update audit_heads set seq = head_seq, hash = head_hash where account_id = p_account;
    delete from audit_pending where id = any(ids);
  end if;
  return moved;
end
$$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop function vigil_audit_move(bigint, integer)`.execute(db);
    await sql`drop index audit_pending_account_idx`.execute(db);
    for (const [name] of FIELDS) await db.schema.alterTable('audit_pending').dropColumn(name).execute();
  }
  await db.schema.alterTable('audit_pending').dropColumn('account_id').execute();
}
