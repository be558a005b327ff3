import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, MAX_OBJECT_MEMBERS } from './json-body.js';

/** The depth of a parsed value, by recursion (the reference the scanner must agree with). */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === 'object' && value !== null)
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe('jsonShapeProblem', () => {
  it('measures nesting outside strings only', () => {
    expect(jsonShapeProblem('{"a":[1,2,{"b":"[[[{{{"}]}', 3)).toBeNull();
    expect(jsonShapeProblem('{"a":[1,2,{"b":[]}]}', 3)).toBe('too_deep');
    expect(jsonShapeProblem('"\\"[[[["', 1)).toBeNull();
    expect(jsonShapeProblem('["\\\\",[[]]]', 2)).toBe('too_deep');
    expect(jsonShapeProblem('["\\\\\\"[[[[[["]', 1)).toBeNull();
  });

  it('stops at the first level too deep, whatever follows', () => {
    expect(jsonShapeProblem('['.repeat(8 * 1024 * 1024), 16)).toBe('too_deep');
    expect(jsonShapeProblem(`${'['.repeat(16)}${']'.repeat(16)}`, 16)).toBeNull();
  });

  it('refuses an object of more than 1,000 members, at any depth, but not a long list', () => {
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    expect(jsonShapeProblem(members(MAX_OBJECT_MEMBERS), 16)).toBeNull();
    expect(jsonShapeProblem(members(MAX_OBJECT_MEMBERS + 1), 16)).toBe('too_many_members');
    expect(jsonShapeProblem(`{"a":[${members(MAX_OBJECT_MEMBERS + 1)}]}`, 16)).toBe('too_many_members');
    expect(
      jsonShapeProblem(`{"ids":[${Array.from({ length: 100_000 }, (_, i) => i).join(',')}]}`, 16),
    ).toBeNull();
    // Commas inside strings and inside nested lists are no members of the object.
    expect(jsonShapeProblem(`{"a":"${','.repeat(5000)}","b":[${'1,'.repeat(5000)}1]}`, 16)).toBeNull();
  });

  it('leaves syntax to JSON.parse: an unterminated string is no shape problem', () => {
    expect(jsonShapeProblem('["abc', 1)).toBeNull();
    expect(jsonShapeProblem('', 1)).toBeNull();
  });

  it('with stringLeaves, finds any value but a string at the deepest level', () => {
    const rows = (row: string) => `{"employees":[${row}]}`;
    expect(jsonShapeProblem(rows('{"a":"1", "b" : "x\\"y"}\n'), 3, true)).toBeNull();
    expect(jsonShapeProblem(rows('{"a":1}'), 3, true)).toBe('not_string');
    expect(jsonShapeProblem(rows('{"a":null}'), 3, true)).toBe('not_string');
    expect(jsonShapeProblem(rows('{"a":false}'), 3, true)).toBe('not_string');
    expect(jsonShapeProblem(rows('{"a":{}}'), 3, true)).toBe('too_deep');
    expect(jsonShapeProblem('{"employees":[], "other": 5}', 3, true)).toBeNull();
  });

  it('agrees with the depth of the parsed value, for any JSON value and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        const text = JSON.stringify(value);
        const expected = depthOf(value) > limit ? 'too_deep' : null;
        expect(jsonShapeProblem(text, limit)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('reads a body of 8 MiB of backslashes and quotes in one pass', () => {
    // Runs of backslashes before quotes: each run is counted once, so this stays linear.
    const text = `["${'\\\\\\"'.repeat(1024 * 1024)}"]`;
    expect(jsonShapeProblem(text, 1)).toBeNull();
    expect(JSON.parse(text)).toHaveLength(1);
  });
});
