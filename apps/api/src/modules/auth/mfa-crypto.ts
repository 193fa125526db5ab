import { createHmac, randomInt } from 'node:crypto';
import { recoveryCodeCount } from '@app/contract/mfa';
import { createSecretBox, deriveServerKey } from '#api/lib/secret-box.ts';

/*
 * Keys for two-step sign-in, each derived from the server secret with its own label
 * (lib/secret-box.ts), so the TOTP-secret key, the recovery-code key and the JWT key are never the
 * same bytes. Consequence: changing JWT_SECRET makes stored authenticators and recovery codes
 * unusable; the decision record (two-step sign-in) says what an operator does then.
 */
export function createMfaCrypto(serverSecret: string) {
  const secrets = createSecretBox(serverSecret, 'totp-secret-aes-256-gcm');
  const recoveryKey = deriveServerKey(serverSecret, 'recovery-code-hmac');

  return {
    /** AES-256-GCM; the user id is the additional data, so a row copied onto another user fails. */
    encryptSecret: (secret: Uint8Array, userId: string): string => secrets.seal(secret, userId),

    /** The secret, or null when the stored value was not made with this key (tampered, or the secret changed). */
    decryptSecret: (stored: string, userId: string): Buffer | null => secrets.open(stored, userId),

    /**
     * Recovery codes carry ~50 bits of randomness, so a keyed HMAC (not a slow password hash) is
     * enough; the key keeps a stolen table from being checked offline.
     */
    hashRecoveryCode(userId: string, code: string): string {
      return createHmac('sha256', recoveryKey)
        .update(`${userId}:${normalizeRecoveryCode(code)}`)
        .digest('base64url');
    },
  };
}
export type MfaCrypto = ReturnType<typeof createMfaCrypto>;

// No 0/o, 1/l/i: codes are read off paper.
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of ten characters, shown as xxxxx-xxxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
