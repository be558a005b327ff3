import { describe, expect, it } from 'vitest';
import { MALFORMED_EMAILS } from '../../test/helpers/addresses.js';
import { FieldErrorCollector } from './errors.js';
import { checkDescription, checkEmail, checkName, normalizeEmail } from './fields.js';

type Check = (errors: FieldErrorCollector, field: string, value: unknown) => string;

/** Runs one check; returns the cleaned value and the messages it reported. */
function run(check: Check, value: unknown) {
  const errors = new FieldErrorCollector();
  const result = check(errors, 'f', value);
  return { value: result, messages: errors.fields.f ?? [] };
}

describe('checkName', () => {
  it('trims and accepts ordinary names', () => {
    expect(run(checkName, '  Ann  ')).toEqual({ value: 'Ann', messages: [] });
    expect(run(checkName, '\t Mary-Jane O’Brien \n')).toEqual({ value: 'Mary-Jane O’Brien', messages: [] });
  });

  it('reports a missing value and a non-string', () => {
    expect(run(checkName, undefined).messages).toEqual(['is required']);
    expect(run(checkName, null).messages).toEqual(['is required']);
    for (const value of [1, true, {}, [], ['Ann']]) {
      expect(run(checkName, value).messages, JSON.stringify(value)).toEqual(['must be a string']);
    }
  });

  it('rejects empty and blank names', () => {
    for (const value of ['', ' ', '\t\n', '\u00a0\u2003']) {
      expect(run(checkName, value).messages, JSON.stringify(value)).toEqual(['must not be empty']);
    }
  });

  it('allows 150 characters and rejects 151, counting characters after trimming', () => {
    expect(run(checkName, 'a'.repeat(150)).messages).toEqual([]);
    expect(run(checkName, `  ${'a'.repeat(150)}  `)).toEqual({ value: 'a'.repeat(150), messages: [] });
    expect(run(checkName, 'a'.repeat(151)).messages).toEqual(['must be at most 150 characters']);
  });

  it('counts an emoji (an astral character, two UTF-16 units) as one character', () => {
    expect('😀'.length).toBe(2);
    expect(run(checkName, '😀'.repeat(150)).messages).toEqual([]);
    expect(run(checkName, '😀'.repeat(151)).messages).toEqual(['must be at most 150 characters']);
    expect(run(checkName, `${'a'.repeat(149)}𝒜`).messages).toEqual([]);
  });

  it('accepts right-to-left and other scripts', () => {
    for (const value of ['مريم الحسن', 'שרה כהן', '李小龙', 'Ἀριστοτέλης', 'Zoë Ørsted']) {
      expect(run(checkName, value)).toEqual({ value, messages: [] });
    }
  });

  it('rejects NUL and other control characters, and line separators', () => {
    for (const value of [
      'A\u0000B',
      'A\u0007',
      'Ann\nLee',
      'Ann\tLee',
      'A\u007f',
      'A\u0085B',
      'A\u2028B',
      'A\u2029B',
    ]) {
      expect(run(checkName, value).messages, JSON.stringify(value)).toEqual([
        'must not contain control characters',
      ]);
    }
  });

  it('rejects lone surrogates (text that is not valid Unicode)', () => {
    for (const value of ['A\ud800', '\udc00B', 'x\ud83dy']) {
      expect(run(checkName, value).messages, JSON.stringify(value)).toEqual(['must be valid Unicode text']);
    }
  });

  it('reports every problem of one value at once', () => {
    expect(run(checkName, `\u0000${'a'.repeat(151)}`).messages).toEqual([
      'must not contain control characters',
      'must be at most 150 characters',
    ]);
  });
});

describe('checkDescription', () => {
  it('may be empty and keeps line breaks and tabs inside', () => {
    expect(run(checkDescription, '')).toEqual({ value: '', messages: [] });
    expect(run(checkDescription, '  line one\n\tline two\r\n ')).toEqual({
      value: 'line one\n\tline two',
      messages: [],
    });
  });

  it('allows 2,000 characters and rejects 2,001', () => {
    expect(run(checkDescription, 'd'.repeat(2000)).messages).toEqual([]);
    expect(run(checkDescription, 'd'.repeat(2001)).messages).toEqual(['must be at most 2000 characters']);
  });

  it('still rejects NUL and other control characters', () => {
    expect(run(checkDescription, 'a\u0000b').messages).toEqual(['must not contain control characters']);
    expect(run(checkDescription, 'a\u001bb').messages).toEqual(['must not contain control characters']);
  });
});

describe('checkEmail', () => {
  it('trims and keeps the case as sent', () => {
    expect(run(checkEmail, '  Ann.Lee@Example.COM ')).toEqual({ value: 'Ann.Lee@Example.COM', messages: [] });
  });

  it('accepts ordinary and internationalised addresses', () => {
    for (const email of [
      'ann@example.com',
      'ann.lee+training@mail.example.co.uk',
      'o’brien@example.ie',
      'ünïcode@exämple.com',
      'x@a.io',
    ]) {
      expect(run(checkEmail, email).messages, email).toEqual([]);
    }
  });

  it('rejects a domain without a dot, such as a@b', () => {
    expect(run(checkEmail, 'a@b').messages).toEqual(['must be a valid email address']);
    expect(run(checkEmail, 'root@localhost').messages).toEqual(['must be a valid email address']);
  });

  it('rejects malformed addresses', () => {
    for (const email of MALFORMED_EMAILS) {
      expect(run(checkEmail, email).messages, JSON.stringify(email)).toEqual([
        'must be a valid email address',
      ]);
    }
  });

  it('allows 254 characters and rejects 255', () => {
    const email = `${'a'.repeat(64)}@${['b'.repeat(63), 'c'.repeat(63), 'd'.repeat(57), 'com'].join('.')}`;
    expect(email).toHaveLength(254);
    expect(run(checkEmail, email).messages).toEqual([]);
    expect(run(checkEmail, ` ${email} `)).toEqual({ value: email, messages: [] });
    expect(run(checkEmail, `a${email}`).messages).toEqual(['must be at most 254 characters']);
  });

  it('reports missing, non-string and empty values', () => {
    expect(run(checkEmail, undefined).messages).toEqual(['is required']);
    expect(run(checkEmail, null).messages).toEqual(['is required']);
    expect(run(checkEmail, 42).messages).toEqual(['must be a string']);
    expect(run(checkEmail, ['a@x.com']).messages).toEqual(['must be a string']);
    expect(run(checkEmail, '').messages).toEqual(['must not be empty']);
    expect(run(checkEmail, '   ').messages).toEqual(['must not be empty']);
  });
});

describe('normalizeEmail', () => {
  it('makes addresses that differ only in case and surrounding space equal', () => {
    expect(normalizeEmail('Ann@X.com')).toBe('ann@x.com');
    expect(normalizeEmail('  ANN@X.COM ')).toBe('ann@x.com');
    expect(normalizeEmail('ann@x.com')).toBe(normalizeEmail('Ann@X.Com'));
  });

  it('lower-cases beyond ASCII', () => {
    expect(normalizeEmail('ÜNÏCODE@EXÄMPLE.COM')).toBe('ünïcode@exämple.com');
    expect(normalizeEmail('ΑΘΗΝΑ@example.gr')).toBe(normalizeEmail('αθηνα@EXAMPLE.GR'));
  });

  it('keeps addresses that differ otherwise distinct', () => {
    expect(normalizeEmail('ann@x.com')).not.toBe(normalizeEmail('ann@x.co'));
    expect(normalizeEmail('ann.lee@x.com')).not.toBe(normalizeEmail('annlee@x.com'));
  });
});
