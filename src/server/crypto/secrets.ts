/**
 * Secrets at rest (WhatsApp access tokens): AES-256-GCM with a key derived from SECRETS_KEY by scrypt.
 *
 * Sealed format, versioned so the scheme can change without breaking stored rows:
 *   `v1.<iv base64url>.<auth tag base64url>.<ciphertext base64url>`
 * A fresh random 96-bit IV per seal. An optional context string is bound as additional authenticated data,
 * so a ciphertext copied into another row (another phone number id) does not open there.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const VERSION = 'v1';
/** Fixed, public salt: the key is per deployment (SECRETS_KEY); the salt only separates this use of it. */
const SALT = 'parley/secrets/v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretsError extends Error {}

export interface SecretBox {
  seal(plain: string, context?: string): string;
  open(sealed: string, context?: string): string;
}

const keyCache = new Map<string, Buffer>();

function deriveKey(secretsKey: string): Buffer {
  let key = keyCache.get(secretsKey);
  if (!key) {
    // scrypt makes a guessable passphrase expensive to brute-force; derived once per process.
    key = scryptSync(secretsKey, SALT, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    keyCache.set(secretsKey, key);
  }
  return key;
}

/** A box for SECRETS_KEY, or null when it is not configured (callers refuse to store secrets then). */
export function createSecretBox(secretsKey: string | undefined): SecretBox | null {
  if (!secretsKey) return null;
  const key = deriveKey(secretsKey);
  return {
    seal(plain, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed, context = '') {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretsError('Unknown secret format');
      const [, ivText, tagText, ctText] = parts;
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretsError('Unknown secret format');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // Wrong key, wrong context or tampered data: never say which, never echo the input.
        throw new SecretsError('The secret cannot be decrypted with the configured SECRETS_KEY');
      }
    },
  };
}

export function lastFour(secret: string): string {
  return secret.slice(-4);
}
