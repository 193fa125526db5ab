import fc from 'fast-check';

/** 1 MiB of text: over the JSON body limit in a body, far over any field's maxLength anywhere. */
export const oneMegabyte = 'A'.repeat(1024 * 1024);

/**
 * Strings that break naive code: injection-looking text, control characters, bidi overrides,
 * astral characters, lone surrogates (not valid UTF-16, so not encodable as UTF-8 either), path
 * traversal, number-looking text and the empty string.
 */
export const hostileStrings: readonly string[] = [
  '',
  ' ',
  "' OR 1=1--",
  "'; DROP TABLE users;--",
  '1; DROP TABLE devices',
  '" OR ""="',
  '%',
  '_',
  '\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}${7*7}',
  '\u0000',
  'a\u0000b',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  '👩‍⚕️💉🩺',
  '\uD800',
  'x\uDC00y',
  '\uFEFF',
  '\r\nX-Injected: 1',
  '../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'x'.repeat(10_000),
];

export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...hostileStrings) },
    { weight: 1, arbitrary: fc.constant(oneMegabyte) },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  );

/** A value of some JSON type, usually not the one the schema asks for. */
export const wrongTypeValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      [],
      {},
      [null],
      { $ne: null },
    ),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
    hostileString(),
  );

/** Keys a strict schema must refuse, and keys that poison naive object merging. */
export const unknownKey = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'isAdmin',
      'role',
      'id',
      'passwordHash',
      "'; --",
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
  );

/**
 * encodeURIComponent refuses lone surrogates; a client on the wire can still send any bytes, so
 * those are sent as the (invalid) UTF-8 bytes of the surrogate code unit.
 */
export function encodeLoose(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // URIError: a lone surrogate; fall through to the byte-wise encoding.
  }
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(ch);
  }
  return out;
}
