import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { getOrCreateSecret } from './secrets.repository.js';

/**
 * Secrets Vigil must read back (TOTP seeds, an identity provider's client secret) are stored
 * sealed: AES-256-GCM under a key from `SECRETS_KEY`, or, when unset, one generated on first
 * start and kept in the database like the cookie secret. A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); `open` refuses anything altered.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export class SealedSecretError extends Error {}

/** A box from any secret text (SECRETS_KEY or the generated one): the key is its SHA-256. */
export function secretBox(secret: string): SecretBox {
  const key = createHash('sha256').update(`vigil secrets key\n${secret}`).digest();
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
      return `v1.${parts.join('.')}`;
    },
    open(sealed) {
      const [version, iv, tag, data, extra] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined || extra !== undefined) {
        throw new SealedSecretError('not a sealed secret');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SealedSecretError('the sealed secret does not open with this key (SECRETS_KEY changed?)');
      }
    },
  };
}

/** The service's box: SECRETS_KEY when set, else the key generated and kept in the database. */
export async function openSecretBox(db: Db, configured: string | undefined): Promise<SecretBox> {
  return secretBox(configured ?? (await getOrCreateSecret(db, 'secrets-key')));
}
