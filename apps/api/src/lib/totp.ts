import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * RFC 4226 HOTP and RFC 6238 TOTP with the parameters every authenticator app supports by default:
 * HMAC-SHA-1, 6 digits, 30-second steps. Written here (it is short) so there is no dependency to
 * audit on the sign-in path.
 */

export const totpPeriodSeconds = 30;
export const totpDigits = 6;
/** One step either side of now: a phone clock a little off, or a code typed as it rolls over. */
export const totpWindow = 1;

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the form authenticator apps take as the manual key. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index === -1) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new 160-bit secret (RFC 4226 recommends the HMAC's output length). */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** RFC 4226 section 5.3: HMAC over the 8-byte counter, dynamic truncation, modulo 10^digits. */
export function hotp(secret: Uint8Array, counter: number, digits = totpDigits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return binary.toString().padStart(digits, '0');
}

/** The time step (RFC 6238 "T") that a moment falls in. */
export const totpStep = (atMs: number): number => Math.floor(atMs / 1000 / totpPeriodSeconds);

export const totp = (secret: Uint8Array, atMs: number, digits = totpDigits): string =>
  hotp(secret, totpStep(atMs), digits);

/**
 * The step whose code matches, trying now and one step either side, or null. The caller refuses a
 * step it has already accepted (replay) by remembering the last one.
 */
export function matchTotp(secret: Uint8Array, code: string, atMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(atMs);
  let matched: number | null = null;
  // Every candidate is compared, so the time taken does not say which step matched.
  for (let step = now - totpWindow; step <= now + totpWindow; step++) {
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code)) && matched === null)
      matched = step;
  }
  return matched;
}

/** The otpauth:// URI authenticator apps read from the QR code (Google Authenticator key URI format). */
export function otpauthUri(opts: { secret: Uint8Array; issuer: string; account: string }): string {
  const label = `${encodeURIComponent(opts.issuer)}:${encodeURIComponent(opts.account)}`;
  const params = new URLSearchParams({
    secret: base32Encode(opts.secret),
    issuer: opts.issuer,
    algorithm: 'SHA1',
    digits: String(totpDigits),
    period: String(totpPeriodSeconds),
  });
  return `otpauth://totp/${label}?${params.toString().replace(/\+/g, '%20')}`;
}
