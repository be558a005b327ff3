import { describe, expect, it } from 'vitest';
import { GROUP_ATTRIBUTES, USER_ATTRIBUTES } from './scim.attributes.model.js';
import { schemas } from './scim.discovery.presenter.js';

describe('the attributes a PATCH may name', () => {
  const names = (map: typeof USER_ATTRIBUTES.mapped): string[] =>
    [...map.values()].flatMap((a) => [
      a.name,
      ...[...(a.subAttributes?.values() ?? [])].map((s) => `${a.name}.${s.name}`),
    ]);
  const advertised = (index: number) =>
    (schemas('https://vigil.example/scim/v2')[index]?.attributes ?? []).flatMap((a) => [
      a.name,
      ...((a.subAttributes ?? []) as Array<{ name: string }>).map((s) => `${a.name}.${s.name}`),
    ]);
  const common = (list: string[]) => list.filter((n) => !/^(id|schemas|meta)(\.|$)/.test(n));

  it('are those the User and Group resources show and /Schemas advertises', () => {
    expect(common(names(USER_ATTRIBUTES.mapped)).sort()).toEqual(advertised(0).sort());
    expect(common(names(GROUP_ATTRIBUTES.mapped)).sort()).toEqual(advertised(1).sort());
  });
});
