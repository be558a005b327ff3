import { expect } from 'vitest';
import type { AccountRole } from '../../../src/core/db/schema.js';
import {
  ACCOUNT_ROLES,
  actsOnWholeAccount,
  isAdminPermission,
  roleAllows,
} from '../../../src/modules/access/roles/roles.model.js';
import { type AdminClient, signInAs } from '../admin.js';
import { errorBody, type Row, readState, send } from './matrix.js';
import type { World } from './world.js';

/**
 * The matrix's rows per role: every admin route of an account, called by an administrator of each
 * built-in role in account A, gets the route's normal answer when the role holds the route's
 * permission (`config.adminPermission`, read from the registered routes) and a 403
 * `role_lacks_permission` that changes nothing otherwise. Derived from the route table and
 * ROLE_PERMISSIONS: a new route or a changed role is covered without a new row.
 */

export { ACCOUNT_ROLES };

/** The administrators of account A, one per role (made once). */
export async function roleClients(w: World): Promise<Record<AccountRole, AdminClient>> {
  const entries = await Promise.all(
    ACCOUNT_ROLES.map(
      async (role) =>
        [
          role,
          await signInAs(w.app, { role: 'account_admin', accountId: w.a.accountId, accountRole: role }),
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<AccountRole, AdminClient>;
}

/** The rows a role is tested on: those an account administrator makes under an account. */
export const roleRows = (rows: Row[]) =>
  rows.filter((r) => r.as === 'admin' && r.route.includes('/admin/api/accounts/:accountId'));

/** Whether this role may call a route that declares this permission. */
export const roleMay = (role: AccountRole, permission: string | undefined) =>
  isAdminPermission(permission) && roleAllows(role, false, permission);

/**
 * Every role's call of one row: the roles without the permission first, on one object (a 403
 * changes nothing, so the first role with it can use the same object), then each role with it
 * on an object of its own (a call may use its object up).
 */
export async function runRoleCases(
  w: World,
  r: Row,
  clients: Record<AccountRole, AdminClient>,
  permission: string | undefined,
): Promise<void> {
  const denied = ACCOUNT_ROLES.filter((role) => !roleMay(role, permission));
  const allowed = ACCOUNT_ROLES.filter((role) => roleMay(role, permission));
  let obj = await r.object?.(w, w.a, 'success');
  for (const role of denied) {
    const side = { ...w.a, admin: clients[role] };
    const before = await readState(w, r, w.a, obj);
    const res = await send(w, r, r.call(side, obj), { actor: 'admin', side });
    expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
    expect(res.json(), role).toEqual({
      ...errorBody('role_lacks_permission'),
      error: expect.stringContaining(`lacks the permission ${permission}`),
      request_id: expect.any(String),
    });
    expect(await readState(w, r, w.a, obj), role).toEqual(before);
  }
  for (const [i, role] of allowed.entries()) {
    const side = { ...w.a, admin: clients[role] };
    if (i > 0) obj = await r.object?.(w, w.a, 'success');
    const res = await send(w, r, r.call(side, obj), { actor: 'admin', side });
    expect(res.statusCode, `${role}: ${res.body}`).toBe(r.success.status);
    r.success.check?.(res, side, obj);
  }
}

/** The routes that act on the whole account (docs/roles.md): by their permission or their `adminScope`. */
export const accountWide = (permission: string | undefined, adminScope: string | undefined) =>
  actsOnWholeAccount(permission, adminScope);

/** An administrator of account A whose role is limited to its first group (made once). */
export function scopedClient(w: World): Promise<AdminClient> {
  return signInAs(w.app, {
    role: 'account_admin',
    accountId: w.a.accountId,
    accountRole: 'administrator',
    groups: [w.a.groups[0] as number],
  });
}

/**
 * A role limited to groups on a route that acts on the whole account: 403 `scope_too_narrow`
 * whatever its permissions, and nothing changed.
 */
export async function runScopedCase(w: World, r: Row, scoped: AdminClient): Promise<void> {
  const obj = await r.object?.(w, w.a, 'success');
  const side = { ...w.a, admin: scoped };
  const before = await readState(w, r, w.a, obj);
  const res = await send(w, r, r.call(side, obj), { actor: 'admin', side });
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({
    ...errorBody('scope_too_narrow'),
    error: expect.stringContaining('acts on the whole account'),
    request_id: expect.any(String),
  });
  expect(await readState(w, r, w.a, obj)).toEqual(before);
}
