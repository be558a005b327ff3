import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { parseGrants } from '../../src/core/auth/permissions.js';
import { employeeSearchText } from '../../src/core/search-text.js';
import { createAccount } from '../../src/modules/access/accounts/accounts.service.js';
import { createKey } from '../../src/modules/access/keys/keys.service.js';
import { createEmployee } from '../../src/modules/directory/employees/employees.service.js';
import { createGroup } from '../../src/modules/directory/groups/groups.service.js';
import { createCampaign } from '../../src/modules/training/campaigns/campaigns.service.js';

/** Builds what a test needs through the real services; every test makes its own account. */

const unique = () => randomBytes(5).toString('hex');

export const ALL_GRANTS = ['employees:rw', 'groups:rw', 'campaigns:rw', 'reports:rw'];

export function makeAccount(app: FastifyInstance, name = `Account ${unique()}`) {
  return createAccount(app.db, { name });
}

export async function makeKey(
  app: FastifyInstance,
  options: { accountId?: number; grants?: string[]; rateLimit?: number; expiresAt?: number } = {},
) {
  const accountId = options.accountId ?? (await makeAccount(app)).id;
  const created = await createKey(app.db, {
    accountId,
    name: `key ${unique()}`,
    permissions: parseGrants(options.grants ?? ALL_GRANTS),
    rateLimit: options.rateLimit ?? 100_000,
    expiresAt: options.expiresAt ?? null,
  });
  return { accountId, keyId: created.id, key: created.key };
}

export function makeEmployee(
  app: FastifyInstance,
  accountId: number,
  fields: Partial<Record<'first_name' | 'last_name' | 'email', string>> = {},
) {
  const u = unique();
  return createEmployee(app.db, accountId, {
    first_name: fields.first_name ?? `First${u}`,
    last_name: fields.last_name ?? `Last${u}`,
    email: fields.email ?? `person.${u}@example.com`,
  });
}

export function makeGroup(
  app: FastifyInstance,
  accountId: number,
  name = `Group ${unique()}`,
  description = '',
) {
  return createGroup(app.db, accountId, { name, description });
}

export function makeCampaign(
  app: FastifyInstance,
  accountId: number,
  groupIds: number[] = [],
  name = `Campaign ${unique()}`,
) {
  return createCampaign(app.db, accountId, { name, group_ids: groupIds });
}

/** An authenticated client for app.inject. */
export function client(app: FastifyInstance, key: string) {
  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url: `/api/api_gateway${url}`,
      headers: {
        apikey: key,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  return {
    get: (url: string, headers?: Record<string, string>) => request('GET', url, undefined, headers),
    post: (url: string, body: unknown, headers?: Record<string, string>) =>
      request('POST', url, body, headers),
    put: (url: string, body: unknown, headers?: Record<string, string>) => request('PUT', url, body, headers),
    request,
  };
}

/**
 * Inserts many employees at once (no API round trips) and refreshes planner statistics, as
 * autovacuum would soon after a real import: PostgreSQL keeps the foreign-key check plan it
 * made while the table was tiny until statistics change.
 */
export async function seedEmployees(
  app: FastifyInstance,
  accountId: number,
  count: number,
): Promise<number[]> {
  const now = Date.now();
  const tag = unique();
  const ids: number[] = [];
  for (let start = 0; start < count; start += 2000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 2000); i++) {
      const email = `bulk${i}.${tag}@example.com`;
      rows.push({
        account_id: accountId,
        first_name: 'Bulk',
        last_name: `Person ${i}`,
        email,
        email_normalized: email,
        search_text: employeeSearchText({ first_name: 'Bulk', last_name: `Person ${i}`, email }),
        created_at: now,
        updated_at: now,
      });
    }
    const inserted = await app.db.insertInto('employees').values(rows).returning('id').execute();
    ids.push(...inserted.map((r) => r.id));
  }
  await sql`analyze`.execute(app.db);
  return ids;
}
