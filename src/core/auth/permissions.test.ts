import { describe, expect, it } from 'vitest';
import {
  ACCESS_POINTS,
  GrantError,
  isGranted,
  isPermission,
  missingPermissionMessage,
  normalizePermissions,
  type Permission,
  parseGrant,
  parseGrants,
} from './permissions.js';

describe('parseGrant', () => {
  it('reads r, w and rw (in either order, or spelt out)', () => {
    expect(parseGrant('employees:r')).toEqual(['employees:read']);
    expect(parseGrant('groups:w')).toEqual(['groups:write']);
    expect(parseGrant('campaigns:rw')).toEqual(['campaigns:read', 'campaigns:write']);
    expect(parseGrant('campaigns:wr')).toEqual(['campaigns:read', 'campaigns:write']);
    expect(parseGrant('groups:read')).toEqual(['groups:read']);
    expect(parseGrant('groups:write')).toEqual(['groups:write']);
  });

  it('ignores case and surrounding space', () => {
    expect(parseGrant(' Employees:RW ')).toEqual(['employees:read', 'employees:write']);
  });

  it('knows exactly the five access points; reports is written (a report button) and read (the triage inbox)', () => {
    expect(ACCESS_POINTS).toEqual(['employees', 'groups', 'campaigns', 'reports', 'audit']);
    for (const point of ['employees', 'groups', 'campaigns', 'reports'])
      expect(parseGrant(`${point}:r`)).toEqual([`${point}:read`]);
    expect(parseGrant('reports:w')).toEqual(['reports:write']);
    expect(parseGrant('reports:rw')).toEqual(['reports:read', 'reports:write']);
    expect(isPermission('reports:write')).toBe(true);
    expect(isPermission('reports:read')).toBe(true);
  });

  it('knows the audit log as read only', () => {
    expect(parseGrant('audit:r')).toEqual(['audit:read']);
    expect(isPermission('audit:write')).toBe(false);
    for (const grant of ['audit:w', 'audit:rw'])
      expect(() => parseGrant(grant)).toThrow(`invalid grant "${grant}": audit is read only (audit:r)`);
  });

  it('rejects unknown access points with a message listing the known ones', () => {
    expect(() => parseGrant('triage:r')).toThrow(GrantError);
    expect(() => parseGrant('triage:r')).toThrow(
      'invalid grant "triage:r": expected ACCESS_POINT:r|w|rw with ACCESS_POINT one of employees, groups, campaigns, reports, audit',
    );
  });

  it('rejects missing or unknown rights, and extra parts', () => {
    for (const grant of ['employees', 'employees:', 'employees:x', 'employees:rwx', 'employees:admin']) {
      expect(() => parseGrant(grant), grant).toThrow(`invalid grant "${grant}": rights must be r, w or rw`);
    }
    for (const grant of ['employees:r:w', ':r', '', '*:rw', 'employee:r']) {
      expect(() => parseGrant(grant), grant).toThrow(GrantError);
    }
  });
});

describe('parseGrants', () => {
  it('combines grants into one sorted list without repeats', () => {
    expect(parseGrants(['campaigns:r', 'groups:rw', 'employees:w', 'groups:r', 'employees:w'])).toEqual([
      'employees:write',
      'groups:read',
      'groups:write',
      'campaigns:read',
    ]);
  });

  it('is empty for no grants and fails on the first bad one', () => {
    expect(parseGrants([])).toEqual([]);
    expect(() => parseGrants(['employees:r', 'nope:r'])).toThrow(GrantError);
  });
});

describe('normalizePermissions and isPermission', () => {
  it('orders by access point, read before write', () => {
    const shuffled: Permission[] = ['campaigns:write', 'employees:write', 'groups:read', 'employees:read'];
    expect(normalizePermissions(shuffled)).toEqual([
      'employees:read',
      'employees:write',
      'groups:read',
      'campaigns:write',
    ]);
  });

  it('recognises only access point:read or :write', () => {
    expect(isPermission('groups:read')).toBe(true);
    expect(isPermission('campaigns:write')).toBe(true);
    for (const value of [
      'groups:r',
      'groups:rw',
      'reports:r',
      'groups',
      'groups:read:x',
      'Groups:read',
      '',
    ]) {
      expect(isPermission(value), value).toBe(false);
    }
  });
});

describe('isGranted', () => {
  it('grants exactly what the key holds', () => {
    const held = parseGrants(['employees:rw', 'groups:r']);
    expect(isGranted(held, 'employees:read')).toBe(true);
    expect(isGranted(held, 'employees:write')).toBe(true);
    expect(isGranted(held, 'groups:read')).toBe(true);
  });

  it('does not treat write as implying read, nor one access point as another', () => {
    const held = parseGrants(['groups:w']);
    expect(isGranted(held, 'groups:read')).toBe(false);
    expect(isGranted(held, 'employees:write')).toBe(false);
    expect(isGranted(held, 'campaigns:write')).toBe(false);
    expect(isGranted([], 'campaigns:read')).toBe(false);
  });
});

describe('missingPermissionMessage', () => {
  it('names the access point and the right', () => {
    expect(missingPermissionMessage('employees:write')).toBe('API key lacks write permission on employees');
    expect(missingPermissionMessage('groups:read')).toBe('API key lacks read permission on groups');
    expect(missingPermissionMessage('campaigns:read')).toBe('API key lacks read permission on campaigns');
  });
});
