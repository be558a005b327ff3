/** Permissions are data: an access point and a right, e.g. "groups:write". */

export const ACCESS_POINTS = ['employees', 'groups', 'campaigns'] as const;
export type AccessPoint = (typeof ACCESS_POINTS)[number];
export type Right = 'read' | 'write';
export type Permission = `${AccessPoint}:${Right}`;

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
  const list = rights === 'read' ? ['read'] : rights === 'write' ? ['write'] : RIGHTS[rights ?? ''];
  if (!list) throw new GrantError(`invalid grant "${grant}": rights must be r, w or rw`);
  return list.map((right) => `${point}:${right}` as Permission);
}

/** Parses many grants into a sorted list without repeats. */
export function parseGrants(grants: string[]): Permission[] {
  return normalizePermissions(grants.flatMap(parseGrant));
}

export function normalizePermissions(permissions: Iterable<Permission>): Permission[] {
  const order = (p: Permission) => {
    const [point, right] = p.split(':');
    return ACCESS_POINTS.indexOf(point as AccessPoint) * 2 + (right === 'write' ? 1 : 0);
  };
  return [...new Set(permissions)].sort((a, b) => order(a) - order(b));
}

export function isPermission(value: string): value is Permission {
  const [point, right, extra] = value.split(':');
  return (
    extra === undefined &&
    ACCESS_POINTS.includes(point as AccessPoint) &&
    (right === 'read' || right === 'write')
  );
}

export function isGranted(held: readonly Permission[], needed: Permission): boolean {
  return held.includes(needed);
}

/** The 403 message: which access point and which right is missing. */
export function missingPermissionMessage(needed: Permission): string {
  const [point, right] = needed.split(':');
  return `API key lacks ${right} permission on ${point}`;
}
