import fc from 'fast-check';
import { encodeLoose, hostileString, hostileStrings, oneMegabyte, wrongTypeValue } from './hostile-values.ts';
import { objectFor, validValueFor, valueFor, type JsonSchema, type KnownValues } from './schema-arbitrary.ts';

type Parameter = {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
};
type OperationObject = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = { paths: Record<string, Record<string, OperationObject>> };

export type Operation = { method: string; path: string; parameters: Parameter[]; jsonBody?: JsonSchema };

/** Who sends the request: the signed-in admin, nobody, or someone with a forged token. */
export type Caller = 'admin' | 'anonymous' | 'forged';

export type FuzzRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  caller: Caller;
  remoteAddress: string;
};

const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every (method, path) of the served document, in document order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!methods.has(method)) continue;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        jsonBody: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

const asText = (v: unknown): string =>
  typeof v === 'string' ? v : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);

/** A path parameter of any shape: real ids, other UUIDs, numbers, traversal, encoded slashes, huge. */
const pathValue = (p: Parameter, known: KnownValues, clean: boolean) =>
  clean
    ? validValueFor(p.schema ?? { type: 'string' }, known, p.name).map(asText)
    : fc.oneof(
        { weight: 5, arbitrary: valueFor(p.schema ?? { type: 'string' }, known, p.name).map(asText) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '..',
            '.',
            '%2F',
            '..%2F..%2Fetc',
            'a/b',
            '0',
            '-1',
            '1.5',
            'null',
            'x'.repeat(5000),
          ),
        },
      );

const queryArb = (params: Parameter[], known: KnownValues, clean: boolean): fc.Arbitrary<string> => {
  const declared = params.filter((p) => p.in === 'query');
  const pairs = declared.map((p) =>
    fc.option(
      clean
        ? validValueFor(p.schema ?? {}, known, p.name).map((v) => [[p.name, asText(v)]])
        : fc.oneof(
            {
              weight: 6,
              arbitrary: valueFor(p.schema ?? {}, known, p.name).map((v) => [[p.name, asText(v)]]),
            },
            // The same key twice arrives as an array.
            {
              weight: 1,
              arbitrary: fc.tuple(hostileString(), hostileString()).map(([a, b]) => [
                [p.name, a],
                [p.name, b],
              ]),
            },
          ),
      { freq: 2 },
    ),
  );
  const extra = clean
    ? fc.constant(null)
    : fc.option(
        fc
          .tuple(
            fc.constantFrom('foo', '__proto__', 'constructor[prototype]', 'page[0]', 'limit'),
            wrongTypeValue().map(asText),
          )
          .map((kv) => [kv]),
        { freq: 8 },
      );
  return fc.tuple(fc.tuple(...pairs), extra).map(([chosen, more]) => {
    const all = [...chosen.flatMap((c) => c ?? []), ...(more ?? [])];
    return all.length ? `?${all.map(([k, v]) => `${encodeLoose(k!)}=${encodeLoose(v!)}`).join('&')}` : '';
  });
};

type Body = { payload?: string | Buffer; contentType?: string };

const jsonBodyArb = (schema: JsonSchema, known: KnownValues, clean: boolean): fc.Arbitrary<Body> =>
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
const looseBodyArb: fc.Arbitrary<Body> = fc.oneof(
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

const callerArb = fc.constantFrom<Caller>(
  'admin',
  'admin',
  'admin',
  'admin',
  'admin',
  'admin',
  'anonymous',
  'forged',
);

/** Hostile or odd optional headers: the X-Timezone the web app sends, a signature for the webhook. */
const headerArb = fc.record(
  {
    'x-timezone': fc.oneof(
      fc.constantFrom('Europe/Berlin', 'UTC', 'America/New_York', 'Mars/Olympus', '', '../../etc/localtime'),
      hostileString().map((s) => s.slice(0, 200)),
    ),
    'stripe-signature': fc.oneof(
      fc.constantFrom('t=1,v1=00', 't=abc,v1=', 'v1=deadbeef'),
      fc.string({ maxLength: 60 }),
    ),
    accept: fc.constantFrom('application/json', '*/*', 'text/html'),
  },
  { requiredKeys: [] },
);

// Header values are bytes on the wire: control characters would not get past a real client.
const headerSafe = (v: string) => v.replace(/[^\x20-\x7e]/g, '?');

/**
 * One request to the operation. Two cases in five are clean (every value valid for its schema, sent
 * by the admin) so the handlers' own logic runs; the rest mix in hostile values, wrong types,
 * missing and extra fields, other callers and other bodies.
 */
export function requestArb(op: Operation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: requestArbOf(op, known, true) },
    { weight: 3, arbitrary: requestArbOf(op, known, false) },
  );
}

function requestArbOf(op: Operation, known: KnownValues, clean: boolean): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const pathArb = fc.tuple(...pathParams.map((p) => pathValue(p, known, clean))).map((values) => {
    let path = op.path;
    pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, encodeLoose(values[i]!))));
    return path;
  });
  const noBody = fc.constant<Body>({});
  const bodyArb: fc.Arbitrary<Body> = op.jsonBody
    ? jsonBodyArb(op.jsonBody, known, clean)
    : op.method === 'GET' || op.method === 'DELETE'
      ? clean
        ? noBody
        : fc.oneof({ weight: 6, arbitrary: noBody }, { weight: 1, arbitrary: looseBodyArb })
      : looseBodyArb;
  return fc
    .record({
      path: pathArb,
      query: queryArb(op.parameters, known, clean),
      body: bodyArb,
      caller: clean ? fc.constant<Caller>('admin') : callerArb,
      headers: clean
        ? fc.constant<Record<string, string | undefined>>({})
        : (headerArb as fc.Arbitrary<Record<string, string | undefined>>),
      ip: fc.tuple(
        fc.integer({ min: 1, max: 254 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 1, max: 254 }),
      ),
    })
    .map(({ path, query, body, caller, headers, ip }) => {
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) h[k] = headerSafe(v);
      if (body.contentType) h['content-type'] = body.contentType;
      return {
        method: op.method,
        url: `${path}${query}`,
        headers: h,
        payload: body.payload,
        caller,
        // Each case from its own address: per-IP throttling must not turn the whole run into 429s,
        // and the harness's own sign-ins (from 127.0.0.1) must never be throttled by the fuzz cases.
        remoteAddress: `10.${ip[0]}.${ip[1]}.${ip[2]}`,
      };
    });
}
