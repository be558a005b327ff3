import { describe, expect, it } from 'vitest';
import { GROUP_ATTRIBUTES, USER_ATTRIBUTES } from './scim.attributes.model.js';
import { applyPatch, targetOperations } from './scim.patch.model.js';
import { readPath } from './scim.path.model.js';

/** The error code a call fails with (undefined when it does not). */
function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

const inherited = [
  ...new Set(
    [Object.prototype, Function.prototype, Array.prototype, String.prototype].flatMap((proto) =>
      Object.getOwnPropertyNames(proto),
    ),
  ),
  '__proto__',
  'prototype',
];

describe('readPath', () => {
  it('reads the paths Okta and Entra send, in any case, with or without the core schema', () => {
    for (const [path, expected] of [
      ['userName', ['userName', undefined]],
      ['NAME.GIVENNAME', ['name', 'givenName']],
      ['urn:ietf:params:scim:schemas:core:2.0:User:name.familyName', ['name', 'familyName']],
      ['emails[type eq "work"].value', ['emails', 'value']],
      ['active', ['active', undefined]],
    ] as const) {
      const target = readPath(path, USER_ATTRIBUTES);
      expect(target.kind === 'mapped' && [target.attribute.name, target.sub?.name], path).toEqual(expected);
    }
    expect(
      readPath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value', USER_ATTRIBUTES),
    ).toMatchObject({ kind: 'ignored' });
    expect(readPath('members[value eq "17"]', GROUP_ATTRIBUTES)).toMatchObject({
      kind: 'mapped',
      attribute: { name: 'members' },
      filter: { text: 'value eq "17"' },
    });
  });

  it('refuses every inherited name, wherever it stands in a path', () => {
    for (const name of inherited) {
      // Function.prototype.name is also User's `name`: alone, that one is Vigil's attribute.
      const alone = USER_ATTRIBUTES.mapped.has(name.toLowerCase()) ? [] : [name];
      for (const path of [
        ...alone,
        `${name}.call`,
        `name.${name}`,
        `emails.${name}`,
        `emails[type eq "work"].${name}`,
        `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:${name}`,
      ])
        expect(
          codeOf(() => readPath(path, USER_ATTRIBUTES)),
          path,
        ).toBe('scim_invalid_path');
      expect(
        codeOf(() => readPath(`emails[${name} eq "x"]`, USER_ATTRIBUTES)),
        name,
      ).toMatch(/^scim_invalid_(path|filter)$/);
      expect(
        codeOf(() => readPath(`members.${name}`, GROUP_ATTRIBUTES)),
        name,
      ).toBe('scim_invalid_path');
    }
  });

  it('refuses a filter holding line feeds before the filter parser backtracks over them', () => {
    const path = `emails[value eq "${'\n'.repeat(60)}"].value`;
    expect(codeOf(() => readPath(path, USER_ATTRIBUTES))).toBe('scim_invalid_filter');
  });
});

describe('applyPatch', () => {
  const shown = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: '7',
    userName: 'ann@example.com',
    name: { givenName: 'Ann', familyName: 'Lee', formatted: 'Ann Lee' },
    emails: [{ value: 'ann@example.com', type: 'work', primary: true }],
    active: true,
  };
  const apply = (operations: Parameters<typeof targetOperations>[0]) =>
    applyPatch(shown, targetOperations(operations, USER_ATTRIBUTES), USER_ATTRIBUTES);

  it('works on a copy made of null-prototype objects, and leaves the resource as it was', () => {
    const patched = apply([
      { op: 'replace', path: 'emails[TYPE eq "Work"].value', value: 'ann.lee@example.com' },
      { op: 'add', value: { 'name.givenName': 'Anne', active: 'False' } },
    ]);
    expect(patched).toEqual({
      ...shown,
      name: { ...shown.name, givenName: 'Anne' },
      emails: [{ ...shown.emails[0], value: 'ann.lee@example.com' }],
      active: 'False',
    });
    const objects = [patched, patched.name, ...(patched.emails as object[])];
    for (const object of objects) expect(Object.getPrototypeOf(object)).toBeNull();
    expect(shown.emails[0]?.value).toBe('ann@example.com');
  });

  it('adds the entry a missing equality filter names, and answers any other unmatched filter with noTarget', () => {
    const patched = apply([
      { op: 'replace', path: 'emails[type eq "home"].value', value: 'ann@home.example' },
    ]);
    expect(patched.emails).toEqual([...shown.emails, { type: 'home', value: 'ann@home.example' }]);
    expect(
      codeOf(() => apply([{ op: 'replace', path: 'emails[type sw "h"].value', value: 'x@example.com' }])),
    ).toBe('scim_no_target');
  });
});
