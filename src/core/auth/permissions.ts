/** Permissions are data: an access point and a right, e.g. "groups:write". */

export const ACCESS_POINTS = ['employees', 'groups', 'campaigns', 'reports', 'audit'] as const;
export type AccessPoint = (typeof ACCESS_POINTS)[number];
export type Right = 'read' | 'write';
/**
 * `reports:write` reports what an employee received (a report button's key holds it alone, and
 * can do nothing else); `reports:read` reads the triage inbox's real reports (a SIEM's key).
 * `audit:read` reads the audit log; it is read only (nothing writes the log but the changes).
 */
export type Permission = `${AccessPoint}:${Right}`;

/** The rights each access point has. */
const RIGHTS_OF: Record<AccessPoint, readonly Right[]> = {
  employees: ['read', 'write'],
  groups: ['read', 'write'],
  campaigns: ['read', 'write'],
  reports: ['read', 'write'],
  audit: ['read'],
};

/** Every permission a key can hold, in the order keys list them. */
export const PERMISSIONS = ACCESS_POINTS.flatMap((point) =>
  RIGHTS_OF[point].map((right) => `${point}:${right}` as Permission),
);

const RIGHTS: Record<string, Right[]> = {
  r: ['read'],
  w: ['write'],
  rw: ['read', 'write'],
  wr: ['read', 'write'],
};

export class GrantError extends Error {}

/** Parses "employees:rw" (also ":r", ":w", ":read", ":write") into permissions. */
export function parseGrant(grant: string): Permission[] {
  const [point, rights, extra] = grant.trim().toLowerCase().split(':');
  if (extra !== undefined || !ACCESS_POINTS.includes(point as AccessPoint)) {
    throw new GrantError(
      `invalid grant "${grant}": expected ACCESS_POINT:r|w|rw with ACCESS_POINT one of ${ACCESS_POINTS.join(', ')}`,
    );
  }
  const list: Right[] | undefined =
    rights === 'read' ? ['read'] : rights === 'write' ? ['write'] : RIGHTS[rights ?? ''];
  if (!list) throw new GrantError(`invalid grant "${grant}": rights must be r, w or rw`);
  const has = RIGHTS_OF[point as AccessPoint];
  if (!list.every((right) => has.includes(right))) {
    const only =
      has.length === 1 && has[0] === 'read' ? `read only (${point}:r)` : `written only (${point}:w)`;
    throw new GrantError(`invalid grant "${grant}": ${point} is ${only}`);
  }
  return list.map((right) => `${point}:${right}` as Permission);
}

/** Parses many grants into a sorted list without repeats. */
export function parseGrants(grants: string[]): Permission[] {
  return normalizePermissions(grants.flatMap(parseGrant));
}

export function normalizePermissions(permissions: Iterable<Permission>): Permission[] {
  const order = (p: Permission) => PERMISSIONS.indexOf(p);
  return [...new Set(permissions)].sort((a, b) => order(a) - order(b));
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function isGranted(held: readonly Permission[], needed: Permission): boolean {
  return held.includes(needed);
}

/** The 403 message: which access point and which right is missing. */
export function missingPermissionMessage(needed: Permission): string {
  const [point, right] = needed.split(':');
  return `API key lacks ${right} permission on ${point}`;
}
