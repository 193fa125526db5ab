import fc from 'fast-check';
import { hostileString, oneMegabyte, unknownKey, wrongTypeValue } from './hostile-values.ts';

/** The part of JSON Schema (as @fastify/swagger emits it from the zod contract) the fuzzer reads. */
export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
};

/** Values that a caller could have known: ids of real rows, so detail routes get past "not found". */
export type KnownValues = { ids: string[] };

const typeOf = (s: JsonSchema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;

function validString(s: JsonSchema, known: KnownValues, name: string): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 80);
  if (s.format === 'uuid' || /id$/i.test(name)) {
    return fc.oneof(known.ids.length ? fc.constantFrom(...known.ids) : fc.uuid(), fc.uuid());
  }
  if (s.format === 'email' || /email/i.test(name)) {
    return fc.oneof(
      fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 254)),
      fc.constant('fuzz@example.org'),
    );
  }
  if (s.format === 'date-time' || /after|before|date|time/i.test(name)) {
    return fc
      .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

/** Exactly at, and just past, each declared limit. */
function stringBoundaries(s: JsonSchema): fc.Arbitrary<string> {
  const lengths = [s.minLength ?? 0, Math.max((s.minLength ?? 0) - 1, 0)];
  if (s.maxLength !== undefined) lengths.push(s.maxLength, s.maxLength + 1);
  return fc
    .constantFrom(...lengths)
    .chain((n) => fc.constantFrom('a'.repeat(n), 'é'.repeat(n), '😀'.repeat(n)));
}

function numberArb(
  s: JsonSchema,
  integer: boolean,
): { valid: fc.Arbitrary<number>; boundary: fc.Arbitrary<number> } {
  const min =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum
        : -1e6;
  const max =
    typeof s.maximum === 'number'
      ? s.maximum
      : typeof s.exclusiveMaximum === 'number'
        ? s.exclusiveMaximum
        : 1e6;
  const valid = integer
    ? fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31 - 1)) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const edges = [
    min,
    max,
    min - 1,
    max + 1,
    min - 0.001,
    max + 0.001,
    0,
    -0,
    2 ** 31,
    2 ** 53 + 1,
    -(2 ** 63),
  ];
  return { valid, boundary: fc.constantFrom(...edges) };
}

/** A value that fits the schema, most of the time; every field also gets wrong types and hostile text. */
export function valueFor(schema: JsonSchema, known: KnownValues, name = ''): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: validValueFor(schema, known, name) },
    { weight: 2, arbitrary: boundaryValueFor(schema) },
    { weight: 2, arbitrary: hostileString() },
    { weight: 1, arbitrary: wrongTypeValue() },
  );
}

function boundaryValueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const t = typeOf(schema);
  if (t === 'string') return stringBoundaries(schema);
  if (t === 'number' || t === 'integer') return numberArb(schema, t === 'integer').boundary;
  if (t === 'array')
    return fc.constantFrom(
      [],
      Array.from({ length: (schema.maxItems ?? 100) + 1 }, () => 'x'),
    );
  return fc.constantFrom(null, oneMegabyte.slice(0, 70_000), '');
}

export function validValueFor(schema: JsonSchema, known: KnownValues, name = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => validValueFor(a, known, name)));
  if (schema.allOf?.length)
    return validValueFor(Object.assign({}, ...schema.allOf) as JsonSchema, known, name);
  switch (typeOf(schema)) {
    case 'string':
      return validString(schema, known, name);
    case 'number':
      return numberArb(schema, false).valid;
    case 'integer':
      return numberArb(schema, true).valid;
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, known, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return objectFor(schema, known);
    default:
      // An open schema (`{}`): anything goes; the route must still decide.
      return wrongTypeValue();
  }
}

/**
 * An object for the schema. Clean: every required field, valid values, nothing extra, so the
 * handler itself runs. Otherwise required fields are sometimes missing, any field may be hostile,
 * and unknown extra keys appear.
 */
export function objectFor(
  schema: JsonSchema,
  known: KnownValues,
  clean = false,
): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fields = props.map(([key, sub]) =>
    fc
      .tuple(
        fc.constant(key),
        fc.double({ min: 0, max: 1, noNaN: true }),
        clean ? validValueFor(sub, known, key) : valueFor(sub, known, key),
      )
      .map(([k, roll, v]) =>
        // A required field is dropped 1 time in 12 (never in a clean object); an optional one is sent half the time.
        (required.has(k) ? clean || roll > 1 / 12 : roll > 0.5) ? ([k, v] as const) : null,
      ),
  );
  const extra = clean
    ? fc.constant(null)
    : fc.option(fc.dictionary(unknownKey(), wrongTypeValue(), { minKeys: 1, maxKeys: 3 }), { freq: 6 });
  return fc.tuple(fc.tuple(...fields), extra).map(([pairs, more]) => {
    const out: Record<string, unknown> = {};
    for (const p of pairs) if (p) out[p[0]] = p[1];
    // defineProperty, not assignment: `__proto__` must arrive as a real key on the wire.
    if (more)
      for (const [k, v] of Object.entries(more))
        Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
    return out;
  });
}
