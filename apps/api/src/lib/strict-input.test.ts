import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputMessages } from '@app/contract/fields';
import type { RegisteredRoute } from './route-registry.ts';
import { buildDemoApk } from '../modules/app-updates/zip-writer.ts';
import { makePng, multipartBody } from '../test/images.ts';
import { createTechnician, deviceInject, enrolDevice, signInOnDevice } from '../test/device-fixtures.ts';
import { signInClinicUser } from '../test/clinic-users.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/*
 * Strict input on every route (issue 8, decision 020): walks `app.registeredRoutes`, so a route added
 * later is checked without anyone listing it here. For each body and query string: the schema
 * bounds every string and refuses unknown keys, and the running route answers 400 to an unknown
 * field and to a 100 kB string. The multipart routes (no JSON schema) are checked by hand below.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  format?: string;
};

type Part = 'body' | 'querystring' | 'params';

const jsonSchemaOf = (schema: unknown): JsonSchema =>
  z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

const isType = (node: JsonSchema, type: string) =>
  node.type === type || (Array.isArray(node.type) && node.type.includes(type));

/** A string is bounded by a maximum length, a fixed set of values, or the uuid format. */
const boundedString = (node: JsonSchema) =>
  node.maxLength !== undefined ||
  node.enum !== undefined ||
  node.const !== undefined ||
  node.format === 'uuid';

/** Every place in the schema that would take an unbounded string or an unknown key. */
function looseSpots(node: JsonSchema, at: string): string[] {
  const spots: string[] = [];
  if (isType(node, 'string') && !boundedString(node)) spots.push(`${at}: string without maxLength`);
  if (isType(node, 'object') || node.properties) {
    if (node.additionalProperties !== false) spots.push(`${at}: object without additionalProperties: false`);
    for (const [key, child] of Object.entries(node.properties ?? {}))
      spots.push(...looseSpots(child, `${at}.${key}`));
  }
  // A property the schema cannot describe ({}) takes anything, strings of any length included.
  if (
    !node.type &&
    !node.properties &&
    !node.anyOf &&
    !node.oneOf &&
    !node.allOf &&
    node.enum === undefined &&
    node.const === undefined
  ) {
    spots.push(`${at}: takes any value`);
  }
  if (node.items) spots.push(...looseSpots(node.items, `${at}[]`));
  for (const child of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
    spots.push(...looseSpots(child, at));
  return spots;
}

const stringFields = (node: JsonSchema) =>
  Object.entries(node.properties ?? {})
    .filter(([, child]) => isType(child, 'string') || (child.anyOf ?? []).some((c) => isType(c, 'string')))
    .map(([key]) => key);

// Only the params' placeholders need a value; any value that passes the params schema will do.
const urlOf = (route: RegisteredRoute) =>
  route.url.replace(':id', randomUUID()).replace(':name', 'x.png').replace(':list', 'devices');

const unknownField = 'zzNotInTheSchema';
const huge = 'a'.repeat(100_000);

let t: TestApp;
let token: string;
/** The machines' routes take a device credential (and a person's session), never the admin's token. */
let machine: { credential: string; session: string };
/** A clinic manager's session, for the clinic portal's routes (decision 088). */
let clinicToken: string;
// Collected at load time so each route is its own test; the app for the requests starts in beforeAll.
const collector = await createTestApp();
const routes = collector.app.registeredRoutes.filter((r) => r.url.startsWith('/api/'));
const withInput = routes.flatMap((route) =>
  (['body', 'querystring'] as const)
    .filter((part) => route.schema?.[part])
    .map((part) => ({ route, part, name: `${route.method} ${route.url} ${part}` })),
);
const withAnySchema = routes.flatMap((route) =>
  (['body', 'querystring', 'params'] as Part[])
    .filter((part) => route.schema?.[part])
    .map((part) => ({ route, part, name: `${route.method} ${route.url} ${part}` })),
);
await collector.close();

beforeAll(async () => {
  // Every device route is called many times from one machine: no per-machine limit here.
  t = await createTestApp({ DEVICE_RATE_PER_MINUTE: '1000000' });
  token = await t.login();
  clinicToken = (await signInClinicUser(t, token)).token;
  const device = await enrolDevice(t);
  const tech = await createTechnician(t, [device.deviceId]);
  const session = await signInOnDevice(t, device.credential, tech.userName, tech.password);
  machine = { credential: device.credential, session: session.accessToken };
});
afterAll(() => t?.close());

const send = (route: RegisteredRoute, part: 'body' | 'querystring', values: Record<string, string>) => {
  const options: InjectOptions = { method: route.method as InjectOptions['method'], url: urlOf(route) };
  if (part === 'body') options.payload = values;
  else options.query = values;
  if (route.access === 'device' || route.access === 'app-user')
    return deviceInject(t, machine.credential, options, machine.session);
  if (route.access === 'clinic') return t.injectAs(clinicToken, options);
  return t.injectAs(token, options);
};

describe('strict input on every route', () => {
  it('finds the routes that take input (the walk is not empty)', () => {
    expect(withInput.length).toBeGreaterThan(30);
    expect(withInput.map((w) => w.name)).toEqual(
      expect.arrayContaining(['POST /api/v1/admin/login body', 'GET /api/v1/admin/machine querystring']),
    );
  });

  describe.each(withAnySchema)('$name', ({ route, part }) => {
    it('bounds every string and refuses unknown keys in its schema', () => {
      const schema = jsonSchemaOf(route.schema![part]);
      // Params come from the router (no other keys can arrive); their strings still need a bound.
      const spots = looseSpots(schema, part).filter(
        (spot) => part !== 'params' || !spot.includes('additionalProperties'),
      );
      expect(spots).toEqual([]);
    });
  });

  describe.each(withInput)('$name', ({ route, part }) => {
    it('answers 400 naming an unknown field', async () => {
      const res = await send(route, part, { [unknownField]: 'x' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toContain(inputMessages.unknownFields([unknownField]));
    });

    it('answers 400 to a 100 kB string in each string field, naming the field', async () => {
      const fields = stringFields(jsonSchemaOf(route.schema![part]));
      for (const field of fields) {
        const res = await send(route, part, { [field]: huge });
        expect(res.statusCode, `${field}: ${res.body.slice(0, 300)}`).toBe(400);
        const errors = (res.json().data?.errors ?? []) as { path: string }[];
        expect(
          errors.map((e) => e.path),
          field,
        ).toContain(field);
      }
    });
  });
});

describe('strict input on the multipart routes', () => {
  const uploadFields = {
    appName: 'com.example.strict',
    versionCode: '3',
    versionName: '1.0',
    remark: 'r',
    updateDesc: 'd',
    updateType: '1',
  };
  const upload = (
    fields: Record<string, string>,
    file: { name: string; filename: string; content: Buffer },
  ) =>
    t.injectAs(token, {
      method: 'POST',
      url: '/api/v1/admin/system/updates',
      ...multipartBody(fields, { ...file, type: 'application/vnd.android.package-archive' }),
    });
  const apk = { name: 'apk', filename: 'app.apk', content: buildDemoApk('com.example.strict', 3) };

  it('refuses an app update with an unknown form field, naming it, and stores nothing', async () => {
    const res = await upload({ ...uploadFields, isAdmin: 'true' }, apk);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toBe(inputMessages.unknownFields(['isAdmin']));
    const list = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/system/updates/all' });
    expect(list.json().data.total).toBe(0);
  });

  it('refuses an app update whose file comes under another name', async () => {
    const res = await upload(uploadFields, { ...apk, name: 'payload' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toBe(inputMessages.unknownFields(['payload']));
  });

  it('still takes the app update form as the console sends it', async () => {
    // A release for every machine (no first stage named) needs a step-up (decision 046).
    await t.stepUp(token);
    const res = await upload(uploadFields, apk);
    expect(res.statusCode, res.body).toBe(201);
  });

  const profileFields = {
    firstName: 'Ada',
    lastName: 'Admin',
    userName: 'strict-admin',
    phone: '5550001234',
  };
  const putProfile = (options: Partial<InjectOptions>) =>
    t.injectAs(token, { method: 'PUT', url: '/api/v1/admin/profile', ...options });

  it('refuses a profile form with an unknown field or file part, naming it', async () => {
    const field = await putProfile(multipartBody({ ...profileFields, role: 'admin' }));
    expect(field.statusCode, field.body).toBe(400);
    expect(field.json().msg).toBe(inputMessages.unknownFields(['role']));
    const file = await putProfile(
      multipartBody(profileFields, {
        name: 'avatar',
        filename: 'a.png',
        type: 'image/png',
        content: makePng({ width: 8, height: 8 }),
      }),
    );
    expect(file.statusCode, file.body).toBe(400);
    expect(file.json().msg).toBe(inputMessages.unknownFields(['avatar']));
  });

  it('refuses a JSON profile body with an unknown field or an oversize string', async () => {
    const unknown = await putProfile({ payload: { ...profileFields, roleId: randomUUID() } });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().msg).toBe(inputMessages.unknownFields(['roleId']));
    for (const field of ['firstName', 'lastName', 'userName', 'phone', 'email']) {
      const res = await putProfile({ payload: { ...profileFields, [field]: huge } });
      expect(res.statusCode, `${field}: ${res.body.slice(0, 200)}`).toBe(400);
      expect((res.json().data.errors as { path: string }[]).map((e) => e.path)).toContain(field);
    }
  });

  it('still takes the profile form as the console sends it (the read-only email included, and ignored)', async () => {
    const res = await putProfile(multipartBody({ ...profileFields, email: 'someone-else@example.com' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.userName).toBe('strict-admin');
    expect(res.json().data.email).not.toBe('someone-else@example.com');
  });
});
