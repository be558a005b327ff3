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
//   hashes up to `limit` of the chain's journaled rows in order, appends them in one insert,
//   deletes them, and returns how many. Every mover of a chain takes turns on its head; the rows are read by a statement
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
  prev text;
  p record;
  ids bigint[] := '{}';
  seqs bigint[] := '{}';
  prevs text[] := '{}';
  hashes text[] := '{}';
begin
  insert into audit_heads (account_id, seq, hash) values (p_account, 0, repeat('0', 64))
    on conflict (account_id) do update set seq = audit_heads.seq
    returning seq, hash into head_seq, head_hash;
  for p in
    select id, record from audit_pending where account_id = p_account order by id limit p_limit
  loop
    head_seq := head_seq + 1;
    prev := head_hash;
    head_hash := encode(sha256(convert_to(prev || chr(10) || '[' || p_account || ',' || head_seq || ',' || p.record, 'UTF8')), 'hex');
    ids := ids || p.id;
    seqs := seqs || head_seq;
    prevs := prevs || prev;
    hashes := hashes || head_hash;
  end loop;
  if cardinality(ids) = 0 then
    return 0;
  end if;
  insert into audit_log (account_id, seq, at, actor_kind, actor_id, actor_label, address, request_id,
      action, object_type, object_id, object_label, changes, prev_hash, hash)
    select p_account, c.seq, j.at, j.actor_kind, j.actor_id, j.actor_label, j.address, j.request_id,
      j.action, j.object_type, j.object_id, j.object_label, j.changes, c.prev, c.hash
    from unnest(ids, seqs, prevs, hashes) as c(id, seq, prev, hash)
    join audit_pending j on j.id = c.id
    order by c.seq;
  update audit_heads set seq = head_seq, hash = head_hash where account_id = p_account;
  delete from audit_pending where id = any(ids);
  return cardinality(ids);
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
