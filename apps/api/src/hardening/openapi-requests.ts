import fc from 'fast-check';
import { encodeLoose, hostileString, wrongTypeValue } from './hostile-values.ts';
import { validValueFor, valueFor, type JsonSchema, type KnownValues } from './schema-arbitrary.ts';
import { jsonBodyArb, looseBodyArb, type Body } from './fuzz-bodies.ts';

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
