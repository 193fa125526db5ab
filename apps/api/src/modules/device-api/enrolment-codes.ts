import { createHmac, randomInt } from 'node:crypto';

/*
 * Enrolment codes are typed by a person from the console's screen into the machine: 10 characters
 * of Crockford's base32 (no I, L, O, U: nothing to misread), 50 bits, shown as XXXXX-XXXXX.
 */

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const codeLength = 10;

/** A new code as shown to the admin: XXXXX-XXXXX. */
export function newEnrolmentCode(): string {
  let raw = '';
  for (let i = 0; i < codeLength; i++) raw += alphabet[randomInt(alphabet.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/**
 * The code as typed (any case, with or without the dash or spaces) in its canonical form, or null
 * when it cannot be a code. Crockford's reading rules apply: I and L are 1, O is 0.
 */
export function normaliseEnrolmentCode(typed: string): string | null {
  const raw = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (raw.length !== codeLength) return null;
  for (const c of raw) if (!alphabet.includes(c)) return null;
  return raw;
}

/**
 * What the table keeps: an HMAC under the server's secret, so a copy of the database alone does
 * not let anyone try the 2^50 codes offline.
 */
export const enrolmentCodeHash = (secret: string, canonical: string) =>
  createHmac('sha256', secret).update(`enrolment-code:${canonical}`).digest('hex');
