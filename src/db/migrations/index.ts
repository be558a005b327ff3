import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';

/** Every migration, in order. Names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
};
