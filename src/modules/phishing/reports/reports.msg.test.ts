import { burn } from '@kenjiuno/msgreader/lib/Burner.js';
import { TypeEnum } from '@kenjiuno/msgreader/lib/Reader.js';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { newSimulationToken } from '../simulation/simulation.links.model.js';
import { tokensFromReportedMessage } from './reports.extract.model.js';

/**
 * Outlook items (.msg), made here with the same library's own Compound File writer: MAPI string
 * properties as `__substg1.0_<tag>001F` streams (UTF-16). Each is padded past the 4 KiB mini-stream
 * cutoff: the writer's small streams do not read back (the library reads Outlook's own files).
 */
function outlookItem(props: { subject: string; body: string; headers: string }): Buffer {
  const pad = (value: string) => Buffer.from(value.padEnd(2100, ' '), 'utf16le');
  const streams: Array<[string, Buffer]> = [
    ['__substg1.0_0037001F', pad(props.subject)],
    ['__substg1.0_1000001F', pad(props.body)],
    [
      '__substg1.0_007D001F',
      Buffer.from(`${props.headers}X-Padding: ${'p'.repeat(2100)}\r\n\r\n`, 'utf16le'),
    ],
    ['__properties_version1.0', Buffer.alloc(4096)],
  ];
  const entries = [
    { name: 'Root Entry', type: TypeEnum.ROOT, length: 0, children: streams.map((_, i) => i + 1) },
    ...streams.map(([name, data]) => ({
      name,
      type: TypeEnum.DOCUMENT,
      length: data.length,
      binaryProvider: () => data,
    })),
  ];
  return Buffer.from(burn(entries));
}

const options = { phishUrls: ['https://phish.example.com'] };

describe('reported Outlook items (.msg)', () => {
  it('reads a .msg sent on its own: its header’s simulation token, its sender and subject', async () => {
    const token = newSimulationToken();
    const item = outlookItem({
      subject: 'Your invoice is overdue',
      body: 'Pay now at https://pay.evil.example/i/42',
      headers: `From: Billing <billing@evil.example>\r\nSubject: Your invoice is overdue\r\nX-Vigil-Simulation: ${token}\r\n`,
    });
    const found = await tokensFromReportedMessage(item, options);
    expect(found.tokens).toEqual([token]);
    expect(found.content).toMatchObject({
      from: { address: 'billing@evil.example' },
      subject: expect.stringMatching(/^Your invoice is overdue/),
      urls: [{ url: 'https://pay.evil.example/i/42', host: 'pay.evil.example' }],
    });
  });

  it('reads a .msg attached to a forward (a reporting mailbox’s format), the view being the item’s', async () => {
    const item = outlookItem({
      subject: 'Reset your password',
      body: 'Reset it at https://reset.evil.example/now',
      headers: 'From: IT <it@evil.example>\r\nSubject: Reset your password\r\n',
    });
    const forward = await new MailComposer({
      from: 'ann.lee@example.com',
      to: 'report@example.com',
      subject: 'Phishing: Reset your password',
      text: 'Reported as phishing.',
      attachments: [
        { filename: 'Reset your password.msg', content: item, contentType: 'application/vnd.ms-outlook' },
      ],
    })
      .compile()
      .build();
    const found = await tokensFromReportedMessage(forward, { ...options, envelope: 'forwarded' });
    expect(found.tokens).toEqual([]);
    expect(found.skipped).toEqual([]);
    expect(found.content.from.address).toBe('it@evil.example');
    expect(found.content.urls.map((u) => u.host)).toEqual(['reset.evil.example']);
  });
});
