import { describe, expect, it } from 'vitest';
import { enrolmentCodeHash, newEnrolmentCode, normaliseEnrolmentCode } from './enrolment-codes.ts';

describe('enrolment codes', () => {
  it('are 10 Crockford base32 characters without I, L, O, U, shown as XXXXX-XXXXX', () => {
    const codes = new Set(Array.from({ length: 200 }, newEnrolmentCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  });

  it('read the same typed in lower case, without the dash, with spaces, or with I/L/O for 1/1/0', () => {
    for (const typed of ['7k3qx-m9d2p', '7K3QXM9D2P', ' 7K3QX M9D2P ', '7K3QX-M9D2P'])
      expect(normaliseEnrolmentCode(typed)).toBe('7K3QXM9D2P');
    expect(normaliseEnrolmentCode('ABCDE-FGHIO')).toBe('ABCDEFGH10');
    expect(normaliseEnrolmentCode('ABCDE-FGHL0')).toBe('ABCDEFGH10');
  });

  it('refuse anything else', () => {
    for (const typed of ['', 'ABCDE', 'ABCDE-FGHJKM', 'ABCDE-FGHJU', 'ABCDE-FGH!K']) {
      expect(normaliseEnrolmentCode(typed)).toBeNull();
    }
  });

  it('are stored as an HMAC that depends on the server secret', () => {
    const h = enrolmentCodeHash('secret-a', '7K3QXM9D2P');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain('7K3QXM9D2P');
    expect(enrolmentCodeHash('secret-b', '7K3QXM9D2P')).not.toBe(h);
  });
});
