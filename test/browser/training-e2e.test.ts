import { beforeAll, describe, expect, it } from 'vitest';
import { builtIn } from '../helpers/learner.js';
import {
  countByRecipient,
  type ReceivedMail,
  startSmtpServer,
  type TestSmtpServer,
} from '../helpers/smtp.js';
import { type CustomerApi, customerApi, PHONE, startVigil, type Vigil } from './harness.js';

/**
 * A whole training campaign, end to end, with nothing faked: the built server (its own process,
 * its own mail worker) sends the invitations to a real SMTP server in this test; an employee
 * follows the link in their email on a phone, reads every lesson and passes the quiz; the
 * Customer API then reports the completion and the score.
 */

const phishing = builtIn('phishing');

let smtp: TestSmtpServer;
let vigil: Vigil;
let api: CustomerApi;
let accountId: number;
beforeAll(async () => {
  smtp = await startSmtpServer();
  vigil = await startVigil({
    SMTP_URL: smtp.url,
    SCHEDULER_INTERVAL_SECONDS: '1',
    MAIL_FROM: 'Acme Security <security@acme.example>',
  });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
  api = await customerApi(vigil, accountId);
});

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/[^\s"<>]+\/learn\/[^\s"<>]+/.exec(mail.text);
  if (!match) throw new Error(`no learner link in: ${mail.text}`);
  return match[0];
}

describe('a training campaign from invitation to completion', () => {
  it('invites by email, trains on the learner page, and reports the completion in the Customer API', async () => {
    const maya = (
      await api.post('employees/', { first_name: 'Maya', last_name: 'Okafor', email: 'maya@acme.example' })
    ).body;
    const tom = (
      await api.post('employees/', { first_name: 'Tom', last_name: 'Berg', email: 'tom@acme.example' })
    ).body;
    const group = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Everyone');
    expect((await api.put(`groups/${group.id}/`, { employee_ids: [maya.id, tom.id] })).status).toBe(200);

    const due = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const draft = await vigil.vigil(
      'campaign',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Phishing 2026',
      '--group',
      String(group.id),
      '--course',
      'phishing',
      '--due-date',
      due,
    );
    const launched = await vigil.vigil(
      'campaign',
      'launch',
      '--account',
      String(accountId),
      '--id',
      String(draft.id),
    );
    expect(launched).toMatchObject({ status: 'active', enrolled_count: 2, completed_count: 0 });

    // The server's worker sends one invitation per employee.
    await waitFor('two invitations', () => (smtp.accepted.length >= 2 ? true : undefined));
    expect(countByRecipient(smtp.accepted)).toEqual(
      new Map([
        ['maya@acme.example', 1],
        ['tom@acme.example', 1],
      ]),
    );
    const invitation = smtp.accepted.find((m) => m.recipients.includes('maya@acme.example')) as ReceivedMail;
    // Named by its course for the employee; the campaign's name is the administrators' own.
    expect(invitation.subject).toContain(phishing.title);
    expect(`${invitation.subject}\n${invitation.text}`).not.toContain('Phishing 2026');
    expect(invitation.text).toContain('Maya');
    expect(invitation.raw).toMatch(/^From: "?Acme Security"? <security@acme\.example>/m);
    const link = linkIn(invitation);
    expect(link.startsWith(vigil.baseUrl)).toBe(true);

    // Maya follows it on her phone, reads every lesson, passes the quiz.
    const { page } = await vigil.newPage(PHONE);
    await page.goto(link);
    await page.getByText('Hello, Maya').waitFor();
    await page.getByRole('link', { name: `Start ${phishing.title}` }).click();
    for (let n = 1; n <= phishing.lessons.length; n++) {
      await page.getByText(`Lesson ${n} of ${phishing.lessons.length}`).waitFor();
      await page.getByRole('button', { name: 'Mark as read and continue' }).click();
    }
    await page.waitForURL('**/courses/phishing/quiz');
    for (const [i, question] of phishing.quiz.entries()) {
      await page
        .getByRole('group', { name: new RegExp(`^Question ${i + 1} of`) })
        .getByRole('radio', { name: question.choices[question.answer], exact: true })
        .check();
    }
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByRole('heading', { name: 'You passed' }).waitFor();
    await page.getByRole('link', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'Congratulations, Maya!' }).waitFor();

    // The Customer API sees it at once.
    const campaign = (await api.get(`campaigns/training/${draft.id}/`)).body;
    expect(campaign).toMatchObject({ enrolled_count: 2, completed_count: 1, completion_rate: 0.5 });
    const enrollments = (await api.get(`campaigns/training/${draft.id}/enrollments/`)).body;
    expect(
      enrollments.results.map((e: { employee: { email: string }; status: string; score: number | null }) => [
        e.employee.email,
        e.status,
        e.score,
      ]),
    ).toEqual([
      ['maya@acme.example', 'completed', 100],
      ['tom@acme.example', 'not_started', null],
    ]);
    const mayas = enrollments.results[0];
    expect(Date.parse(mayas.started_at)).toBeLessThanOrEqual(Date.parse(mayas.completed_at));
    // And nobody got a second invitation meanwhile.
    expect(smtp.accepted).toHaveLength(2);
  });
});
