import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AccountRole } from '../../src/core/db/schema.js';
import { findAdminByEmail } from '../../src/modules/access/admins/admins.repository.js';
import { createAdmin } from '../../src/modules/access/admins/admins.service.js';
import { replaceGroupScope } from '../../src/modules/access/roles/roles.repository.js';
import { makeAccount } from './factories.js';

/** Signs in to the web interface's API the way a browser does: cookies plus the CSRF header. */

export const ADMIN_PASSWORD = 'correct horse battery staple';

export type AdminRole =
  | { role: 'operator' }
  | { role: 'account_admin'; accountId: number; accountRole?: AccountRole; groups?: number[] };

export interface AdminClient {
  /** Send these with `app.inject`: the session and CSRF cookies and the `x-csrf-token` header. */
  headers: Record<string, string>;
  user: { id: number; email: string; role: string; account_id: number | null };
  email: string;
}

/** `name=value; …` for a Cookie header, from a response's Set-Cookie (later ones win). */
export function cookieHeader(previous: string, res: LightMyRequestResponse): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map(
        (pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string],
      ),
  );
  for (const cookie of res.cookies as { name: string; value: string }[]) {
    if (cookie.value === '') jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** GET /admin/api/session: the CSRF cookie and token a browser starts with. */
export async function anonymousClient(app: FastifyInstance): Promise<{ headers: Record<string, string> }> {
  const res = await app.inject({ method: 'GET', url: '/admin/api/session' });
  return { headers: { cookie: cookieHeader('', res), 'x-csrf-token': res.json().csrf_token } };
}

/** Signs in with email and password; the returned headers carry the new session. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password = ADMIN_PASSWORD,
): Promise<AdminClient> {
  const start = await anonymousClient(app);
  const res = await app.inject({
    method: 'POST',
    url: '/admin/api/session',
    headers: start.headers,
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return {
    headers: { cookie: cookieHeader(start.headers.cookie ?? '', res), 'x-csrf-token': body.csrf_token },
    user: body.user,
    email,
  };
}

/** A new administrator with this role, signed in. */
export async function signInAs(app: FastifyInstance, as: AdminRole): Promise<AdminClient> {
  const email = `admin-${randomBytes(5).toString('hex')}@example.com`;
  await createAdmin(app.db, {
    email,
    password: ADMIN_PASSWORD,
    role: as.role,
    accountId: as.role === 'account_admin' ? as.accountId : null,
    ...(as.role === 'account_admin' && as.accountRole ? { accountRole: as.accountRole } : {}),
  });
  if (as.role === 'account_admin' && as.groups?.length) {
    const admin = await findAdminByEmail(app.db, email.toLowerCase());
    await replaceGroupScope(app.db, as.accountId, Number(admin?.id), as.groups);
  }
  return signIn(app, email);
}

/**
 * Two accounts and a signed-in administrator of the first (`mine`, whose admin API path is
 * `base`): where an admin route's tests start, the other account's objects out of reach.
 */
export async function adminOfOneOfTwoAccounts(app: FastifyInstance) {
  const mine = (await makeAccount(app)).id;
  const theirs = (await makeAccount(app)).id;
  const admin = await signInAs(app, { role: 'account_admin', accountId: mine });
  return { mine, theirs, admin, base: `/accounts/${mine}` };
}

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `send(as, method, url, payload)` to the admin API (`url` after `/admin/api`), signed in as `as` or not at all. */
export function adminSender(app: FastifyInstance) {
  return (as: AdminClient | undefined, method: AdminMethod, url: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/admin/api${url}`,
      headers: as?.headers ?? {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}
