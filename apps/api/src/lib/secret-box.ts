import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Secrets the server stores and must read back (authenticator secrets, the licences' signing keys),
 * encrypted with keys derived from the server secret (JWT_SECRET). Each use derives its own key
 * (HKDF-SHA-256, its own label), so no two uses ever share key bytes. Consequence: changing
 * JWT_SECRET makes what was stored unreadable (each use says what an operator does then).
 */

// The first use's name, kept as the salt of every key: changing it would change every derived key.
const salt = Buffer.from('device-admin-mfa');

/** 32 bytes derived from the server secret for one use, named by `label`. */
export const deriveServerKey = (serverSecret: string, label: string) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(serverSecret), salt, Buffer.from(label), 32));

const version = 'v1';

/**
 * AES-256-GCM under the key for `label`. `context` is authenticated but not stored (the row's id,
 * a user's id): a value copied onto another row fails to open.
 */
export function createSecretBox(serverSecret: string, label: string) {
  const key = deriveServerKey(serverSecret, label);
  return {
    seal(secret: Uint8Array, context: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(secret), cipher.final()]);
      return `${version}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },

    /** The secret, or null when the stored value was not made with this key (tampered, or the secret changed). */
    open(stored: string, context: string): Buffer | null {
      const [v, packed] = stored.split('.');
      if (v !== version || !packed) return null;
      const bytes = Buffer.from(packed, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
      } catch {
        return null;
      }
    },
  };
}
