import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

/**
 * Tokens, sessions and reset links are long random secrets, so a fast hash is enough to store them.
 * Every SDK request hashes its token: the one-shot form costs half of a Hash object's.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function randomUrlSafe(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** FLAGPOLE_SECRET_KEY: 32 bytes, as 64 hexadecimal digits or in base64 (`openssl rand -hex 32`). */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : undefined;
  if (key?.length !== 32) {
    throw new Error(
      'FLAGPOLE_SECRET_KEY must be 32 random bytes, written as 64 hexadecimal digits or in base64 ' +
        '(for example the output of `openssl rand -hex 32`)',
    );
  }
  return key;
}

/** A sealed secret that cannot be opened: sealed with another key, or none is configured. */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

const SEALED = 'aes256gcm';
const PLAIN = 'plain';

/**
 * Secrets that must be given back to be used (an integration's Authorization header), stored
 * encrypted with AES-256-GCM when a key is configured and as they are otherwise. A sealed text
 * names the key it was sealed with (by a hash), so a changed key is told apart from damage.
 */
export class SecretBox {
  private readonly keyId: string | undefined;

  constructor(private readonly key: Buffer | undefined) {
    this.keyId = key ? hash('sha256', key, 'hex').slice(0, 8) : undefined;
  }

  get encrypts(): boolean {
    return this.key !== undefined;
  }

  seal(plain: string): string {
    if (!this.key) return `${PLAIN}:${plain}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [SEALED, this.keyId!, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  open(sealed: string): string {
    if (sealed.startsWith(`${PLAIN}:`)) return sealed.slice(PLAIN.length + 1);
    const [kind, keyId, iv, tag, body] = sealed.split(':');
    if (kind !== SEALED || body === undefined) throw new SecretKeyError('The stored secret is damaged.');
    if (!this.key) {
      throw new SecretKeyError('The secret was stored encrypted, and FLAGPOLE_SECRET_KEY is not set.');
    }
    if (keyId !== this.keyId) {
      throw new SecretKeyError('The secret was stored encrypted with another FLAGPOLE_SECRET_KEY.');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv!, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretKeyError('The stored secret is damaged.');
    }
  }
}
