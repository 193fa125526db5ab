import fc from 'fast-check';
import { hostileString, hostileStrings, oneMegabyte, wrongTypeValue } from './hostile-values.ts';
import { objectFor, type JsonSchema, type KnownValues } from './schema-arbitrary.ts';

/* The request bodies the OpenAPI fuzzer sends: JSON from the route's schema, multipart, and loose ones. */

export type Body = { payload?: string | Buffer; contentType?: string };

export const jsonBodyArb = (schema: JsonSchema, known: KnownValues, clean: boolean): fc.Arbitrary<Body> =>
  clean
    ? objectFor(schema, known, true).map((o) => ({
        payload: JSON.stringify(o),
        contentType: 'application/json',
      }))
    : fc.oneof(
        {
          weight: 16,
          arbitrary: objectFor(schema, known).map((o) => ({
            payload: JSON.stringify(o),
            contentType: 'application/json',
          })),
        },
        {
          weight: 1,
          arbitrary: wrongTypeValue().map((v) => ({
            payload: JSON.stringify(v) ?? 'null',
            contentType: 'application/json',
          })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Body>(
            { payload: '{"a":', contentType: 'application/json' },
            { payload: '', contentType: 'application/json' },
            {},
            { payload: 'email=a@b.c', contentType: 'application/x-www-form-urlencoded' },
            { payload: '<x/>', contentType: 'text/xml' },
          ),
        },
        {
          weight: 1,
          arbitrary: fc.constant<Body>({
            payload: JSON.stringify({ x: oneMegabyte }),
            contentType: 'application/json',
          }),
        },
      );

/** Field names the multipart routes read (profile, app updates), plus names nobody reads. */
const multipartFieldNames = [
  'firstName',
  'lastName',
  'userName',
  'email',
  'phone',
  'appName',
  'versionCode',
  'versionName',
  'remark',
  'updateDesc',
  'updateType',
  'x',
  '__proto__',
];
const multipartFileNames = ['file', 'apk', 'image', 'other'];

/** A hand-built multipart body: random fields and files, sometimes malformed on purpose. */
const multipartArb: fc.Arbitrary<Body> = fc
  .record({
    fields: fc.array(
      fc.tuple(
        fc.constantFrom(...multipartFieldNames),
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...hostileStrings), fc.integer().map(String)),
      ),
      { maxLength: 8 },
    ),
    files: fc.array(
      fc.tuple(
        fc.constantFrom(...multipartFileNames),
        fc.constantFrom(
          'a.png',
          'app.apk',
          '../../etc/passwd',
          'x\u0000.png',
          '',
          'é😀.jpg',
          'a'.repeat(300),
        ),
        fc.constantFrom(
          'image/png',
          'application/vnd.android.package-archive',
          'application/zip',
          'text/html',
          'application/octet-stream',
        ),
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }),
          fc.constant(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0])),
          fc.constant(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
        ),
      ),
      { maxLength: 2 },
    ),
    broken: fc.constantFrom('none', 'none', 'none', 'no-end', 'wrong-boundary'),
  })
  .map(({ fields, files, broken }) => {
    const boundary = '----fuzzboundary7MA4YWxk';
    const chunks: Buffer[] = [];
    for (const [name, value] of fields)
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    for (const [name, filename, type, bytes] of files) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        Buffer.from(bytes),
        Buffer.from('\r\n'),
      );
    }
    if (broken !== 'no-end') chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const declared = broken === 'wrong-boundary' ? 'somethingelse' : boundary;
    return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${declared}` };
  });

/** Routes without a JSON body schema (multipart uploads, the raw webhook, body-less writes). */
export const looseBodyArb: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: multipartArb },
  {
    weight: 1,
    arbitrary: wrongTypeValue().map((v) => ({
      payload: JSON.stringify(v) ?? 'null',
      contentType: 'application/json',
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 4096 })
      .map((b) => ({ payload: Buffer.from(b), contentType: 'application/octet-stream' })),
  },
  { weight: 1, arbitrary: hostileString().map((s) => ({ payload: s, contentType: 'text/plain' })) },
  { weight: 1, arbitrary: fc.constant<Body>({}) },
);
