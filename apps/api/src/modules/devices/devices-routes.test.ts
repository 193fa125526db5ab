import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { deviceForm as form } from '#api/test/device-fixtures.ts';
import { deviceRequests, missingId } from './device-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add, list } = deviceRequests(() => ({ t, token }));

describe('POST /api/v1/admin/machine/add', () => {
  it('adds a device, Active by default, and answers with it and the message Device added', async () => {
    const body = form();
    const res = await add(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 201,
      msg: 'Device added',
      data: { ...body, status: 2, subscriptionStatus: null, subscriptionDetails: [] },
    });
    expect(res.json().data._id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes coordinates typed as text and an explicit first status', async () => {
    const res = await add(form({ latitude: ' -33.8688 ', longitude: '151.2093', status: 1 }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ latitude: -33.8688, longitude: 151.2093, status: 1 });
  });

  it('names every missing field with the form message', async () => {
    const res = await add({});
    expect(res.statusCode).toBe(400);
    const msg = res.json().msg;
    for (const text of [
      'Machine number is required',
      'Serial number is required',
      'Location is required',
      'Latitude is required',
      'Longitude is required',
      'City is required',
      'Country is required',
      'Address is required',
    ]) {
      expect(msg).toContain(text);
    }
  });

  it('treats blank text as missing', async () => {
    const res = await add(form({ city: '   ', latitude: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Latitude is required; City is required');
  });

  it('says the coordinates must be numbers, and within range', async () => {
    expect((await add(form({ latitude: 'north' }))).json().msg).toBe('Latitude must be a number');
    expect((await add(form({ longitude: '13,4' }))).json().msg).toBe('Longitude must be a number');
    expect((await add(form({ latitude: 91 }))).json().msg).toBe('Latitude must be between -90 and 90');
    expect((await add(form({ longitude: -180.5 }))).json().msg).toBe(
      'Longitude must be between -180 and 180',
    );
  });

  it('refuses wrong types, over-long text and a status other than 1 or 2', async () => {
    expect((await add(form({ machineNumber: 5 }))).json().msg).toBe('Machine number must be text');
    expect((await add(form({ address: 'x'.repeat(501) }))).json().msg).toBe(
      'Address must be at most 500 characters',
    );
    expect((await add(form({ status: 3 }))).json().msg).toBe('Status must be 1 (Inactive) or 2 (Active)');
  });

  it('answers a duplicate machine or serial number with 409, whatever the letter case', async () => {
    const first = form();
    expect((await add(first)).statusCode).toBe(201);
    const sameMachine = await add(form({ machineNumber: first.machineNumber.toUpperCase() }));
    expect(sameMachine.statusCode).toBe(409);
    expect(sameMachine.json()).toEqual({
      code: 409,
      msg: 'A device with this machine number already exists',
      data: null,
    });
    const sameSerial = await add(form({ serialNumber: first.serialNumber }));
    expect(sameSerial.json().msg).toBe('A device with this serial number already exists');
    const both = await add(form({ machineNumber: first.machineNumber, serialNumber: first.serialNumber }));
    expect(both.json().msg).toBe(
      'A device with this machine number already exists; A device with this serial number already exists',
    );
  });

  it('answers bad bodies with a 4xx and a message, never a 500', async () => {
    const cases = [
      t.injectAs(token, { method: 'POST', url: '/api/v1/admin/machine/add' }),
      t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/machine/add',
        headers: { 'content-type': 'application/json' },
        payload: '{"machineNumber":',
      }),
      t.injectAs(token, {
        method: 'POST',
        url: '/api/v1/admin/machine/add',
        payload: [1, 2] as unknown as object,
      }),
      add(form({ latitude: { $gt: 0 }, machineNumber: null })),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.json().msg.length).toBeGreaterThan(0);
    }
  });
});
describe('authentication', () => {
  it('refuses every device route without a valid token', async () => {
    const id = missingId;
    const requests = [
      t.app.inject({ method: 'GET', url: '/api/v1/admin/machine' }),
      t.app.inject({ method: 'POST', url: '/api/v1/admin/machine/add', payload: form() }),
      t.app.inject({ method: 'GET', url: `/api/v1/admin/machine/${id}` }),
      t.app.inject({ method: 'PUT', url: `/api/v1/admin/machine/${id}`, payload: { status: 1 } }),
      t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/machine',
        headers: { authorization: 'Bearer a.b.c' },
      }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    }
    const before = (await list()).json().data.total;
    expect(before).toBeGreaterThan(0);
  });
});
