import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_admin.js';
import * as m0003 from './0003_training.js';
import * as m0004 from './0004_runtime.js';
import * as m0005 from './0005_mail_send_phase.js';

/** Every migration, in order. Names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_admin': m0002,
  '0003_training': m0003,
  '0004_runtime': m0004,
  '0005_mail_send_phase': m0005,
};
