import { describe, expect, it } from 'vitest';
import { foldedContainsPattern } from './db/like.js';
import { employeeSearchText, foldForSearch } from './search-text.js';

describe('foldForSearch', () => {
  it('ignores case in every script', () => {
    expect(foldForSearch('ÖZTÜRK')).toBe(foldForSearch('öztürk'));
    expect(foldForSearch('ΟΔΥΣΣΕΑΣ')).toBe(foldForSearch('οδυσσεας'));
    expect(foldForSearch('ДМИТРИЙ')).toBe(foldForSearch('дмитрий'));
    expect(foldForSearch('ԱՐԱՄ')).toBe(foldForSearch('արամ'));
  });

  it('makes ß, ẞ and SS one, and a final ς a σ', () => {
    expect(foldForSearch('Straße')).toBe('strasse');
    expect(foldForSearch('STRASSE')).toBe('strasse');
    expect(foldForSearch('STRAẞE')).toBe('strasse');
    expect(foldForSearch('Οδυσσεύς')).toBe('οδυσσευσ');
  });

  it('ignores Latin, Greek and Cyrillic accents, and a few letters with a stroke', () => {
    expect(foldForSearch('Öztürk')).toBe('ozturk');
    expect(foldForSearch('Émile Zoë')).toBe('emile zoe');
    expect(foldForSearch('İstanbul Işık')).toBe('istanbul isik');
    expect(foldForSearch('Ελένη')).toBe('ελενη');
    expect(foldForSearch('Фёдор')).toBe('федор');
    expect(foldForSearch('Søren Łukasz Đorđe Æsa Œuvre')).toBe('soren lukasz dorde aesa oeuvre');
    // The same accent written as one code point or as a letter and a combining mark.
    expect(foldForSearch('E\u0301mile')).toBe(foldForSearch('\u00c9mile'));
  });

  it('keeps other scripts as they are, in NFC, compatibility forms made plain', () => {
    expect(foldForSearch('山田 太郎')).toBe('山田 太郎');
    expect(foldForSearch('がっこう')).toBe('がっこう');
    expect(foldForSearch('김민준')).toBe('김민준');
    expect(foldForSearch('ﾔﾏﾀﾞ')).toBe('ヤマダ');
    expect(foldForSearch('ＡＢＣ ﬁle')).toBe('abc file');
    expect(foldForSearch('देवनागरी')).toBe('देवनागरी');
  });
});

describe('employeeSearchText', () => {
  it('is the full name and, on a line of its own, the address', () => {
    expect(
      employeeSearchText({ first_name: 'Émile', last_name: 'Öztürk', email: 'E.Ozturk@Example.COM' }),
    ).toBe('emile ozturk\ne.ozturk@example.com');
  });
});

describe('foldedContainsPattern', () => {
  it('folds the search as the stored text is folded, with %, _ and \\ literal', () => {
    expect(foldedContainsPattern('  ÖZTÜRK ')).toBe('%ozturk%');
    expect(foldedContainsPattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });

  it('has nothing to search for in blank text, and matches nothing with a control character', () => {
    expect(foldedContainsPattern(undefined)).toBeUndefined();
    expect(foldedContainsPattern('   ')).toBeUndefined();
    expect(foldedContainsPattern('\u0301')).toBeUndefined();
    expect(foldedContainsPattern('a\u0000')).toBeNull();
    expect(foldedContainsPattern('lee\nann')).toBeNull();
  });
});
