import { describe, expect, it } from 'vitest';
import { loadSubscriptions } from '../../subscriptions.js';
import { type MailComposer, mailComposerOf, registerMailComposer } from './mail.composers.service.js';
import { presentMessageDetail } from './mail.messages.presenter.js';
import type { MessageDetailRow } from './mail.messages.repository.js';

describe('the mail composer registry', () => {
  it('has a composer for every kind of message once the subscriptions are registered', () => {
    loadSubscriptions();
    loadSubscriptions(); // again: nothing changes
    for (const kind of ['invitation', 'reminder', 'link', 'simulation'] as const) {
      expect(mailComposerOf(kind)).toBeDefined();
    }
    expect(mailComposerOf('invitation')).toBe(mailComposerOf('link'));
  });

  it('refuses a second, different composer for a kind', () => {
    loadSubscriptions();
    const other: MailComposer = { prepare: async () => ({ compose: () => 'no' }) };
    expect(() => registerMailComposer('simulation', other)).toThrow(/already registered/);
  });

  it('shows a simulation without its tracking image, other messages as they were sent', () => {
    loadSubscriptions();
    const pixel =
      '<img src="https://p.test/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">';
    const row = {
      kind: 'simulation',
      status: 'sent',
      created_at: 0,
      sent_at: 0,
      next_attempt_at: 0,
      body_html: `<p>Hi</p>${pixel}`,
    } as MessageDetailRow;
    expect(presentMessageDetail(row).body_html).toBe('<p>Hi</p>');
    expect(presentMessageDetail({ ...row, kind: 'invitation' }).body_html).toBe(`<p>Hi</p>${pixel}`);
  });
});
