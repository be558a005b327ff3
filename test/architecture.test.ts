import { describe, expect, it } from 'vitest';
import { describeViolation, findViolations } from './helpers/boundaries.js';

/**
 * The rules of docs/ARCHITECTURE.md, read off the import graph of src/ (type-only imports and
 * re-exports included); `npx tsx test/helpers/boundaries.ts` lists what this test finds.
 */
describe('the boundaries of docs/ARCHITECTURE.md', () => {
  it('hold: core imports no module, a context only lower indexes, SQL only in repositories, named roles and prefixes, no two modules importing each other', () => {
    expect(findViolations().map(describeViolation)).toEqual([]);
  });
});
