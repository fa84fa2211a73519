import { createHash, randomBytes } from 'node:crypto';

/** Tokens, sessions and reset links are long random secrets, so a fast hash is enough to store them. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function randomUrlSafe(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
