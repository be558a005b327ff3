import { describe, expect, it } from 'vitest';
import type { Db } from '../../core/db/database.js';
import { AppError, validationFailed } from '../../core/errors.js';
import {
  type CampaignKind,
  type CampaignOfAccount,
  campaignKinds,
  registerCampaignKind,
} from './campaigns.kinds.service.js';
import { campaignLifecycle } from './campaigns.lifecycle.model.js';
import { runCampaignScheduling } from './campaigns.scheduling.commands.js';

// The scheduling knows no table: a kind's descriptor finds, launches and completes its own.
const db = {} as Db;
const lifecycle = campaignLifecycle(
  {
    draft: 'draft',
    scheduled: 'scheduled',
    running: 'running',
    completed: 'completed',
    archived: 'archived',
  },
  'programme',
);

function recorder() {
  const lines: [string, string][] = [];
  return {
    lines,
    log: {
      warn: (_o: object, msg: string) => lines.push(['warn', msg]),
      error: (_o: object, msg: string) => lines.push(['error', msg]),
    },
  };
}

const campaign = (id: number): CampaignOfAccount => ({ id, account_id: 1 });

describe('the scheduling of every kind of campaign', () => {
  it('runs each registered kind in order: launches, due mail, completions; a lost race is no error', async () => {
    const done: string[] = [];
    const kind = (name: string, failing: boolean): CampaignKind => ({
      name,
      lifecycle,
      due: {
        find: async () => [campaign(1), campaign(2), campaign(3)],
        launch: async (_db, c) => {
          if (c.id === 2) throw lifecycle.refused('launch', 'running');
          if (c.id === 3) throw validationFailed({ window_end_at: ['must be in the future'] });
          done.push(`${name} launched ${c.id}`);
        },
        refused: async (_db, c, err) => {
          done.push(`${name} refused ${c.id}: ${err.code}`);
          return true;
        },
        failure: `could not launch ${name}`,
      },
      dueMail: {
        queue: async () => (failing ? Promise.reject(new Error('down')) : 4),
        failure: `no mail ${name}`,
      },
      ended: {
        find: async () => [campaign(9)],
        complete: async () => done.push(`${name} completed 9`),
        afterwards: async () => done.push(`${name} afterwards`),
        failure: `could not complete ${name}`,
      },
    });
    const before = campaignKinds();
    registerCampaignKind(kind('first', false));
    registerCampaignKind(kind('second', true));
    const { lines, log } = recorder();
    const pass = await runCampaignScheduling(db, 0, log);
    expect(pass.filter((k) => k.kind === 'first' || k.kind === 'second')).toEqual([
      { kind: 'first', launched: 1, queued: 4, completed: 1 },
      { kind: 'second', launched: 1, queued: 0, completed: 1 },
    ]);
    expect(done).toEqual([
      'first launched 1',
      'first refused 3: validation_failed',
      'first completed 9',
      'first afterwards',
      'second launched 1',
      'second refused 3: validation_failed',
      'second completed 9',
      'second afterwards',
    ]);
    expect(lines).toEqual([['error', 'no mail second']]);
    expect(campaignKinds().slice(0, before.length)).toEqual(before);
  });

  it('logs a failing step with the kind’s line and goes on with the next', async () => {
    const failing: CampaignKind = {
      name: 'failing',
      lifecycle,
      due: {
        find: async () => [campaign(1)],
        launch: async () => {
          throw new AppError('validation_failed');
        },
        failure: 'could not launch failing',
      },
      ended: {
        find: async () => Promise.reject(new Error('down')),
        complete: async () => undefined,
        failure: 'could not complete failing',
      },
    };
    registerCampaignKind(failing);
    const { lines, log } = recorder();
    const pass = await runCampaignScheduling(db, 0, log);
    expect(pass.find((k) => k.kind === 'failing')).toEqual({
      kind: 'failing',
      launched: 0,
      queued: 0,
      completed: 0,
    });
    expect(lines.filter(([, msg]) => msg.includes('failing'))).toEqual([
      ['error', 'could not launch failing'],
      ['error', 'could not complete failing'],
    ]);
  });
});
