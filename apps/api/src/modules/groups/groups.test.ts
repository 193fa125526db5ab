import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupMessages, groupPaths, type Group } from '@app/contract/groups';
import { adminToken, addDevice } from '#api/test/device-fixtures.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/* Machine groups (decision 077): static ones hold picked machines, dynamic ones a filter. */

let t: TestApp;
let admin: string;
let city: string;
const machines: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminToken(t);
  city = `Groupville-${Date.now()}`;
  for (let i = 0; i < 3; i++) machines.push((await addDevice(t, { city })).deviceId);
  await addDevice(t, { city: 'Elsewhere' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.injectAs(admin, { method, url, payload });
const created = async (body: object): Promise<Group> => {
  const res = await call('POST', groupPaths.groups, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};

describe('static groups', () => {
  it('holds the machines added to it, picked or all matching, each once, and lets them go', async () => {
    const group = await created({ name: `Ward ${Date.now()}`, kind: 'static' });
    expect(group).toMatchObject({
      kind: 'static',
      filter: null,
      machineCount: 0,
      createdBy: 'admin@example.com',
    });
    const picked = await call('POST', groupPaths.members(group._id), { ids: machines.slice(0, 2) });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json()).toMatchObject({ msg: '2 machines added', data: { changed: 2, machineCount: 2 } });
    const matching = await call('POST', groupPaths.members(group._id), { allMatching: { city } });
    expect(matching.json().data).toEqual({ changed: 1, machineCount: 3 });
    const removed = await call('POST', groupPaths.removeMembers(group._id), { ids: [machines[0]] });
    expect(removed.json()).toMatchObject({ msg: '1 machine removed', data: { changed: 1, machineCount: 2 } });
    expect((await call('GET', groupPaths.group(group._id))).json().data.machineCount).toBe(2);
  });

  it('refuses a filter on a static group, and members on a dynamic one', async () => {
    const res = await call('POST', groupPaths.groups, { name: 'Bad', kind: 'static', filter: { city } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(groupMessages.filterNotStatic);
    const dynamic = await created({ name: `Dyn ${Date.now()}`, kind: 'dynamic', filter: { city } });
    const add = await call('POST', groupPaths.members(dynamic._id), { ids: [machines[0]] });
    expect(add.statusCode).toBe(400);
    expect(add.json().msg).toBe(groupMessages.notStatic);
  });
});

describe('dynamic groups', () => {
  it('holds whatever its filter matches when asked, a new machine included', async () => {
    const group = await created({ name: `In ${city}`, kind: 'dynamic', filter: { city } });
    expect(group).toMatchObject({ kind: 'dynamic', filter: { city }, machineCount: 3 });
    await addDevice(t, { city });
    expect((await call('GET', groupPaths.group(group._id))).json().data.machineCount).toBe(4);
    const renamed = await call('PUT', groupPaths.group(group._id), {
      name: 'Renamed',
      filter: { city: 'Elsewhere' },
    });
    expect(renamed.json().data).toMatchObject({ name: 'Renamed', machineCount: 1 });
  });

  it('requires a filter, and names an unknown one', async () => {
    const none = await call('POST', groupPaths.groups, { name: 'No filter', kind: 'dynamic' });
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toContain(groupMessages.filterRequired);
    const unknown = await call('POST', groupPaths.groups, {
      name: 'X',
      kind: 'dynamic',
      filter: { colour: 'red' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toContain('colour');
  });
});

describe('names, lists and deletion', () => {
  it('keeps names unique whatever their case, lists by name with search, and deletes', async () => {
    const name = `Unique ${Date.now()}`;
    const group = await created({ name, kind: 'static' });
    const twin = await call('POST', groupPaths.groups, { name: name.toUpperCase(), kind: 'static' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().msg).toBe(groupMessages.nameTaken);
    const listed = await call('GET', `${groupPaths.groups}?search=${encodeURIComponent(name.toLowerCase())}`);
    expect(listed.json().data.groups.map((g: Group) => g._id)).toEqual([group._id]);
    expect((await call('DELETE', groupPaths.group(group._id))).statusCode).toBe(200);
    expect((await call('GET', groupPaths.group(group._id))).statusCode).toBe(404);
    expect((await call('DELETE', groupPaths.group(group._id))).statusCode).toBe(404);
  });
});
