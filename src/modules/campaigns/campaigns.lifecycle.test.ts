import { describe, expect, it } from 'vitest';
import { campaignLifecycle, LIFECYCLE_STATUSES } from './campaigns.lifecycle.model.js';

const training = campaignLifecycle(
  { draft: 'draft', scheduled: 'scheduled', running: 'active', completed: 'completed', archived: 'archived' },
  'campaign',
);
const phishing = campaignLifecycle(
  {
    draft: 'draft',
    scheduled: 'scheduled',
    running: 'running',
    completed: 'completed',
    archived: 'archived',
  },
  'phishing campaign',
);

describe('the campaign lifecycle', () => {
  it('names the statuses in the kind’s words, in the lifecycle’s order', () => {
    expect(LIFECYCLE_STATUSES).toEqual(['draft', 'scheduled', 'running', 'completed', 'archived']);
    expect(training.statuses).toEqual(['draft', 'scheduled', 'active', 'completed', 'archived']);
    expect(phishing.statuses).toEqual(['draft', 'scheduled', 'running', 'completed', 'archived']);
  });

  it('allows each status its actions, whatever the kind calls it', () => {
    expect(training.allowedActions('draft')).toEqual(['edit', 'schedule', 'launch', 'archive', 'delete']);
    expect(training.allowedActions('scheduled')).toEqual(['edit', 'unschedule', 'launch']);
    expect(training.allowedActions('active')).toEqual(['edit', 'stop']);
    expect(phishing.allowedActions('running')).toEqual(['edit', 'stop']);
    expect(phishing.allowedActions('completed')).toEqual(['edit', 'archive']);
    expect(phishing.allowedActions('archived')).toEqual([]);
    expect(training.allows('draft', 'delete')).toBe(true);
    expect(training.allows('completed', 'delete')).toBe(false);
  });

  it('moves from where each action may start to where it leads', () => {
    expect(training.move('schedule')).toEqual({ from: ['draft'], to: 'scheduled' });
    expect(training.move('unschedule')).toEqual({ from: ['scheduled'], to: 'draft' });
    expect(training.move('launch')).toEqual({ from: ['draft', 'scheduled'], to: 'active' });
    expect(phishing.move('launch')).toEqual({ from: ['draft', 'scheduled'], to: 'running' });
    expect(training.move('stop')).toEqual({ from: ['active'], to: 'completed' });
    expect(phishing.move('stop')).toEqual({ from: ['running'], to: 'completed' });
    expect(phishing.move('archive')).toEqual({ from: ['draft', 'completed'], to: 'archived' });
  });

  it('lets an administrator launch a draft or a scheduled campaign, the scheduler only a scheduled one', () => {
    expect(training.launchFrom('now')).toEqual(['draft', 'scheduled']);
    expect(training.launchFrom('scheduled')).toEqual(['scheduled']);
  });

  it('stamps a completion and an archiving, nothing else', () => {
    expect(training.stamp('completed', 5)).toEqual({ completed_at: 5 });
    expect(phishing.stamp('archived', 5)).toEqual({ archived_at: 5 });
    expect(training.stamp('active', 5)).toEqual({});
    expect(training.is('active', 'running')).toBe(true);
    expect(phishing.is('draft', 'running')).toBe(false);
  });

  it('refuses with a 409 that names the action, the kind and the status', () => {
    const refusal = training.refused('stop', 'draft');
    expect([refusal.code, refusal.status, refusal.message]).toEqual([
      'campaign_status_conflict',
      409,
      'Cannot stop a campaign that is draft',
    ]);
    expect(phishing.refused('launch', 'running').message).toBe(
      'Cannot launch a phishing campaign that is running',
    );
  });
});
