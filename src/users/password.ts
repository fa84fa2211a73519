import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../http/errors.js';

const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const MAX_LENGTH = 128;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * scrypt runs on libuv's thread pool, so hashing never blocks the event loop. The hash records its
 * cost (N, PASSWORD_HASH_COST), so a hash made with another cost still verifies.
 */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, R, P);
  return `scrypt$${cost}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The rules every new password must meet, each failure said in words. */
export function passwordProblems(password: string): string[] {
  if (password.length === 0) return ['The password must not be empty.'];
  const problems: string[] = [];
  if (password.length < 10) problems.push('The password must be at least 10 characters long.');
  if (password.length > MAX_LENGTH)
    problems.push(`The password must be at most ${MAX_LENGTH} characters long.`);
  if (!/\p{Lu}/u.test(password)) problems.push('The password must contain at least one upper-case letter.');
  if (!/\p{Ll}/u.test(password)) problems.push('The password must contain at least one lower-case letter.');
  if (!/\p{Nd}/u.test(password)) problems.push('The password must contain at least one digit.');
  if (!/[^\p{L}\p{Nd}]/u.test(password)) {
    problems.push('The password must contain at least one special character (a symbol or punctuation).');
  }
  if (/(.)\1\1/u.test(password)) {
    problems.push('The password must not contain the same character three or more times in a row.');
  }
  return problems;
}

export function assertStrongPassword(password: string): void {
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw new ValidationError(
      problems.length === 1 ? problems[0]! : `The password is too weak: ${problems.join(' ')}`,
      problems.map((message) => ({ path: 'password', message })),
    );
  }
}
