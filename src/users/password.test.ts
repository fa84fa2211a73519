import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblems, verifyPassword } from './password.js';

describe('passwordProblems()', () => {
  it('accepts a password that meets every rule', () => {
    expect(passwordProblems('Correct-Horse-9')).toEqual([]);
    expect(passwordProblems('Ünïcode-Pässwort-1')).toEqual([]);
  });

  it('names each rule that fails', () => {
    expect(passwordProblems('')).toEqual(['The password must not be empty.']);
    expect(passwordProblems('Aa1!Aa1!')).toEqual(['The password must be at least 10 characters long.']);
    expect(passwordProblems('aaaaaaaaaa')).toHaveLength(4);
    expect(passwordProblems('UPPER-CASE-1')).toEqual([
      'The password must contain at least one lower-case letter.',
    ]);
    expect(passwordProblems('Abc-defghij')).toEqual(['The password must contain at least one digit.']);
    expect(passwordProblems('Abcdefghij1')).toEqual([
      'The password must contain at least one special character (a symbol or punctuation).',
    ]);
    expect(passwordProblems('Abc-111-def')).toEqual([
      'The password must not contain the same character three or more times in a row.',
    ]);
    expect(passwordProblems(`Aa1-${'x'.repeat(200)}`)).toContain(
      'The password must be at most 128 characters long.',
    );
  });
});

describe('hashPassword() / verifyPassword()', () => {
  it('verifies the right password only, with a salted hash', async () => {
    const a = await hashPassword('Correct-Horse-9', 16384);
    const b = await hashPassword('Correct-Horse-9', 16384);
    expect(a).not.toBe(b);
    expect(a).not.toContain('Correct-Horse-9');
    expect(await verifyPassword('Correct-Horse-9', a)).toBe(true);
    expect(await verifyPassword('correct-horse-9', a)).toBe(false);
    expect(await verifyPassword('Correct-Horse-9', null)).toBe(false);
    expect(await verifyPassword('Correct-Horse-9', 'garbage')).toBe(false);
  });

  it('records the cost in the hash, so a hash made with another cost still verifies', async () => {
    const cheap = await hashPassword('Correct-Horse-9', 1024);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('Correct-Horse-9', cheap)).toBe(true);
    expect(await verifyPassword('Correct-Horse-8', cheap)).toBe(false);
  });
});
