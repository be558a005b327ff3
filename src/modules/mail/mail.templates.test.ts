import { describe, expect, it } from 'vitest';
import {
  daysLeft,
  formatDate,
  type MailData,
  messageIdFor,
  renderMail,
  trainingTitle,
} from './mail.templates.presenter.js';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 20, 9, 0);

function data(overrides: Partial<MailData> = {}): MailData {
  return {
    kind: 'invitation',
    firstName: 'Ann',
    accountName: 'Acme Ltd',
    courses: [
      { title: 'Spotting phishing', minutes: 12 },
      { title: 'Passwords and MFA', minutes: 10 },
    ],
    dueAt: Date.UTC(2026, 11, 4, 17, 0),
    started: false,
    link: 'https://vigil.example.com/learn/12.abc.sig',
    linkExpiresAt: now + 30 * DAY,
    now,
    ...overrides,
  };
}

describe('training mail', () => {
  it('writes dates plainly in UTC', () => {
    expect(formatDate(Date.UTC(2026, 11, 4, 23, 59))).toBe('Friday 4 December 2026');
    expect(formatDate(Date.UTC(2027, 0, 1, 0, 0))).toBe('Friday 1 January 2027');
  });

  it('invites by first name with the course titles, minutes, due date and the link', () => {
    const mail = renderMail(data());
    expect(mail.subject).toBe('Your security training: Spotting phishing and Passwords and MFA');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Hello Ann,');
      expect(part).toContain('Acme Ltd');
      expect(part).toContain('Spotting phishing (about 12 minutes)');
      expect(part).toContain('Passwords and MFA (about 10 minutes)');
      expect(part).toContain('about 22 minutes in all');
      expect(part).toContain('Friday 4 December 2026');
      expect(part).toContain('https://vigil.example.com/learn/12.abc.sig');
      expect(part).toContain('Sunday 20 December 2026'); // the link's expiry
    }
    expect(mail.html).toContain('<a href="https://vigil.example.com/learn/12.abc.sig"');
  });

  it('escapes every value in the HTML so markup in names shows as text', () => {
    const mail = renderMail(
      data({
        firstName: '<img src=x onerror=alert(1)>',
        accountName: 'Tom & "Jerry"',
        courses: [{ title: '<script>alert(2)</script><b>bold</b>', minutes: 5 }],
      }),
    );
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('Hello &lt;img src=x onerror=alert(1)&gt;,');
    expect(mail.html).toContain('Tom &amp; &quot;Jerry&quot;');
    expect(mail.html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    // Plain text is not HTML: the name stays as written.
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)>,');
  });

  it('keeps a subject on one line whatever the course title holds', () => {
    expect(renderMail(data({ courses: [{ title: 'Two\r\nlines', minutes: 3 }] })).subject).toBe(
      'Your security training: Two lines',
    );
  });

  it('names the training by its courses: one, two, or the first and how many more', () => {
    expect(trainingTitle([{ title: 'A' }])).toBe('A');
    expect(trainingTitle([{ title: 'A' }, { title: 'B' }])).toBe('A and B');
    expect(trainingTitle([{ title: 'A' }, { title: 'B' }, { title: 'C' }])).toBe('A and 2 more courses');
    expect(trainingTitle([])).toBe('security training');
  });

  it('shows the organisation’s name, with its logo from the message when it has one', () => {
    const plain = renderMail(data());
    expect(plain.html).not.toContain('<img');
    expect(plain.html).toContain('>Acme Ltd</div>');
    const branded = renderMail(data({ logoCid: 'logo-0123@vigil' }));
    expect(branded.html).toContain('<img src="cid:logo-0123@vigil" alt=""');
  });

  it('counts down in reminders: N days left, due tomorrow, overdue', () => {
    const due = now + 7 * DAY;
    const week = renderMail(data({ kind: 'reminder', dueAt: due }));
    expect(week.subject).toBe('Reminder: 7 days left for Spotting phishing and Passwords and MFA');
    expect(week.text).toContain('is due in 7 days, on Friday 27 November 2026');
    expect(week.text).toContain('Start the training');

    const tomorrow = renderMail(data({ kind: 'reminder', dueAt: now + DAY - 60_000, started: true }));
    expect(tomorrow.subject).toBe('Reminder: Spotting phishing and Passwords and MFA is due tomorrow');
    expect(tomorrow.text).toContain('pick up where you left off');
    expect(tomorrow.text).toContain('Continue the training');

    const late = renderMail(data({ kind: 'reminder', dueAt: now - DAY }));
    expect(late.subject).toBe('Reminder: Spotting phishing and Passwords and MFA is overdue');
    expect(late.text).toContain('was due on Thursday 19 November 2026');
  });

  it('sends a fresh link with a note for those who did not ask', () => {
    const mail = renderMail(data({ kind: 'link' }));
    expect(mail.subject).toBe('Your new link for Spotting phishing and Passwords and MFA');
    expect(mail.text).toContain('Here is the new link you asked for');
    expect(mail.text).toContain('If you did not ask for a new link');
    expect(mail.text).toContain('https://vigil.example.com/learn/12.abc.sig');
  });

  it('counts part days as days', () => {
    expect(daysLeft(now + 7 * DAY, now)).toBe(7);
    expect(daysLeft(now + 6 * DAY + 1, now)).toBe(7);
    expect(daysLeft(now, now)).toBe(0);
  });

  it('makes one Message-ID per queued message, on the public host', () => {
    expect(messageIdFor(42, 'https://training.acme.example:8443/base')).toBe(
      '<vigil-msg-42@training.acme.example>',
    );
    expect(messageIdFor(42, 'not a url')).toBe('<vigil-msg-42@vigil.invalid>');
  });
});
