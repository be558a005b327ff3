import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Issue 23, item 1: single sign-on per account (src/modules/access/sso).
//
// - `sso_connections`: an account's one identity provider, OpenID Connect or SAML 2.0, and the
//   rules of administrators it signs in (allowed email domains, the claim or attribute that holds
//   groups, a group → role mapping). The OIDC client secret is sealed with the secret box.
// - `sso_requests`: sign-ins under way, one row each, deleted when used (single use): OIDC keyed
//   by the hash of `state`, with the nonce, the PKCE verifier and the hash of the browser's
//   binding cookie; SAML keyed by the hash of the AuthnRequest ID (InResponseTo).
// - `sso_assertions`: the IDs of SAML assertions already used, kept until they expire, so a
//   replayed response is refused.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const ref = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('sso_connections')
    .addColumn('account_id', ref, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('oidc_issuer', 'text')
    .addColumn('oidc_client_id', 'text')
    .addColumn('oidc_client_secret', 'text')
    .addColumn('oidc_acr_values', 'text')
    .addColumn('saml_idp_entity_id', 'text')
    .addColumn('saml_idp_sso_url', 'text')
    .addColumn('saml_idp_certs', 'text')
    .addColumn('allowed_domains', 'text', (c) => c.notNull())
    .addColumn('groups_claim', 'text')
    .addColumn('role_mapping', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sso_requests')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('binding_hash', 'text')
    .addColumn('nonce', 'text')
    .addColumn('code_verifier', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index sso_requests_expiry_idx on sso_requests (expires_at)`.execute(db);

  await db.schema
    .createTable('sso_assertions')
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_assertions_pk', ['account_id', 'assertion_id'])
    .execute();
  await sql`create index sso_assertions_expiry_idx on sso_assertions (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sso_assertions`.execute(db);
  await sql`drop table sso_requests`.execute(db);
  await sql`drop table sso_connections`.execute(db);
}
