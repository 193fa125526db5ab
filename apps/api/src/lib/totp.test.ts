import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totp, totpStep } from './totp.ts';

// The shared secret of RFC 4226 appendix D and RFC 6238 appendix B (SHA-1 rows).
const rfcSecret = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP (RFC 4226 appendix D)', () => {
  it('produces the published values for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(rfcSecret, counter))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238 appendix B, SHA-1)', () => {
  const vectors: [seconds: number, code: string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  it.each(vectors)('at T=%i seconds gives %s (8 digits)', (seconds, code) => {
    expect(totp(rfcSecret, seconds * 1000, 8)).toBe(code);
  });

  it('uses 6 digits by default: the last six of the 8-digit value', () => {
    expect(totp(rfcSecret, 59_000)).toBe('287082');
  });
});

describe('matchTotp', () => {
  const at = 1_700_000_000_000;
  it('accepts the current step and one either side, and returns the step that matched', () => {
    const now = totpStep(at);
    expect(matchTotp(rfcSecret, totp(rfcSecret, at), at)).toBe(now);
    expect(matchTotp(rfcSecret, totp(rfcSecret, at - 30_000), at)).toBe(now - 1);
    expect(matchTotp(rfcSecret, totp(rfcSecret, at + 30_000), at)).toBe(now + 1);
  });

  it('refuses codes two steps away, wrong codes and anything not six digits', () => {
    expect(matchTotp(rfcSecret, totp(rfcSecret, at - 60_000), at)).toBeNull();
    expect(matchTotp(rfcSecret, totp(rfcSecret, at + 60_000), at)).toBeNull();
    const wrong = String((Number(totp(rfcSecret, at)) + 1) % 1_000_000).padStart(6, '0');
    expect(matchTotp(rfcSecret, wrong, at)).toBeNull();
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456'])
      expect(matchTotp(rfcSecret, code, at)).toBeNull();
  });
});

describe('base32 and the otpauth URI', () => {
  it('round-trips and matches RFC 4648 test vectors', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb-oi').toString()).toBe('foobar');
    expect(base32Encode(rfcSecret)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  it('names issuer, account, algorithm, digits and period', () => {
    const uri = otpauthUri({ secret: rfcSecret, issuer: 'Device Admin', account: 'a@b.co' });
    expect(uri).toBe(
      'otpauth://totp/Device%20Admin:a%40b.co?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Device%20Admin&algorithm=SHA1&digits=6&period=30',
    );
  });
});
