import { describe, expect, it } from 'vitest';
import { classifySendError } from './mail.transport.service.js';

// What nodemailer 10 hands back for each kind of failure (code, responseCode, response, permanent).
const smtpReply = (responseCode: number, response: string, code = 'EENVELOPE') =>
  Object.assign(new Error(`Can't send mail - all recipients were rejected: ${response}`), {
    code,
    responseCode,
    response,
    permanent: responseCode >= 500 && responseCode !== 503,
  });

describe('classifying send failures', () => {
  it('fails at once on a 5xx reply, keeping the server’s words', () => {
    const err = classifySendError(smtpReply(550, '550 5.1.1 Mailbox unavailable'));
    expect(err.permanent).toBe(true);
    expect(err.message).toBe('550 5.1.1 Mailbox unavailable');
  });

  it('retries 4xx replies, 503, dropped connections and timeouts', () => {
    expect(classifySendError(smtpReply(451, '451 4.3.0 Try again later', 'EMESSAGE')).permanent).toBe(false);
    expect(classifySendError(smtpReply(503, '503 Bad sequence', 'EPROTOCOL')).permanent).toBe(false);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' });
    expect(classifySendError(refused)).toMatchObject({
      permanent: false,
      message: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:25',
    });
    const timeout = Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' });
    expect(classifySendError(timeout).permanent).toBe(false);
  });

  it('tells when the server itself is unavailable, not just this message', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' });
    expect(classifySendError(refused).serverUnavailable).toBe(true);
    expect(classifySendError(smtpReply(421, '421 4.3.2 Shutting down', 'EPROTOCOL')).serverUnavailable).toBe(
      true,
    );
    expect(classifySendError(smtpReply(535, '535 5.7.8 Bad credentials', 'EAUTH')).serverUnavailable).toBe(
      true,
    );
    expect(classifySendError(smtpReply(452, '452 4.2.2 Mailbox full', 'EENVELOPE')).serverUnavailable).toBe(
      false,
    );
    expect(classifySendError(smtpReply(550, '550 5.1.1 No such user')).serverUnavailable).toBe(false);
  });

  it('tells whether the server answered, or the outcome is unknown (no reply after the message)', () => {
    expect(classifySendError(smtpReply(451, '451 4.3.0 Try again later', 'EMESSAGE')).answered).toBe(true);
    expect(classifySendError(smtpReply(550, '550 5.1.1 No such user')).answered).toBe(true);
    const lost = Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' });
    expect(classifySendError(lost).answered).toBe(false);
    const timeout = Object.assign(new Error('Timeout'), { code: 'ETIMEDOUT' });
    expect(classifySendError(timeout).answered).toBe(false);
  });

  it('fails an address the client cannot use, but retries a failed sign-in', () => {
    const noRecipient = Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' });
    expect(classifySendError(noRecipient).permanent).toBe(true);
    const auth = smtpReply(535, '535 5.7.8 Authentication credentials invalid', 'EAUTH');
    expect(classifySendError(auth).permanent).toBe(false);
  });

  it('never repeats the SMTP credentials and keeps the text short', () => {
    const err = Object.assign(new Error('Invalid login for mailer: s3cret-pass rejected'), { code: 'EAUTH' });
    expect(classifySendError(err, ['s3cret-pass']).message).toBe(
      'EAUTH: Invalid login for mailer: [redacted] rejected',
    );
    const long = classifySendError(new Error('x'.repeat(2000)));
    expect(long.message.length).toBeLessThanOrEqual(300);
  });
});
