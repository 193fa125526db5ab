import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { preferenceMessages, type SavedView } from '@app/contract/preferences';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
let other: string;
beforeAll(async () => {
  ({ t, token } = await signedInApp());
  // Another admin, of a role that carries nothing but what every admin has.
  other = (await signInWithPermissions(t, token, [])).token;
});
afterAll(() => t.close());

const call = (as: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.injectAs(as, { method, url, ...(payload ? { payload } : {}) });
const devicePrefs = {
  columns: ['machineNumber', 'serialNumber', 'online'],
  pageSize: 25,
  sort: { key: 'lastSeenAt', direction: 'desc' },
};

describe('list preferences', () => {
  it("keeps each list's columns, page size and sort per admin, across sign-out and sign-in", async () => {
    expect((await call(token, 'GET', apiPaths.preferences)).json().data).toEqual({
      lists: {},
      colorMode: 'system',
    });
    const saved = await call(token, 'PUT', apiPaths.listPreferences('devices'), devicePrefs);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ msg: preferenceMessages.saved, data: devicePrefs });
    await call(token, 'PUT', apiPaths.listPreferences('logs'), { columns: null, pageSize: 50, sort: null });

    // Signed out, then in again (another browser would be the same): still there.
    expect((await call(token, 'POST', apiPaths.logout)).statusCode).toBe(200);
    token = await t.login();
    expect((await call(token, 'GET', apiPaths.preferences)).json().data.lists).toEqual({
      devices: devicePrefs,
      logs: { columns: null, pageSize: 50, sort: null },
    });
    // A change replaces the list's preferences; the other admin has none of them.
    await call(token, 'PUT', apiPaths.listPreferences('devices'), { ...devicePrefs, pageSize: 100 });
    expect((await call(token, 'GET', apiPaths.preferences)).json().data.lists.devices.pageSize).toBe(100);
    expect((await call(other, 'GET', apiPaths.preferences)).json().data).toEqual({
      lists: {},
      colorMode: 'system',
    });
  });

  it('names the field in a 400 and keeps what was saved', async () => {
    const cases: Array<[string, object, string]> = [
      ['nowhere', devicePrefs, preferenceMessages.invalidList],
      ['devices', { ...devicePrefs, pageSize: 500 }, 'pageSize must be at most 100'],
      ['devices', { ...devicePrefs, sort: { key: 'x', direction: 'up' } }, 'direction must be asc or desc'],
      ['devices', { ...devicePrefs, colour: 'red' }, 'colour'],
      ['devices', { columns: null }, 'pageSize'],
    ];
    for (const [list, body, message] of cases) {
      const res = await call(token, 'PUT', apiPaths.listPreferences(list), body);
      expect(res.statusCode, `${list} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().msg).toContain(message);
    }
    expect((await call(token, 'GET', apiPaths.preferences)).json().data.lists.devices.pageSize).toBe(100);
  });
});

describe('colour mode', () => {
  const colorMode = async (as: string) =>
    (await call(as, 'GET', apiPaths.preferences)).json().data.colorMode as string;

  it('keeps the colour mode per admin, across sign-out and sign-in, beside the list preferences', async () => {
    const saved = await call(token, 'PUT', apiPaths.colorMode, { colorMode: 'dark' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ msg: preferenceMessages.saved, data: { colorMode: 'dark' } });

    expect((await call(token, 'POST', apiPaths.logout)).statusCode).toBe(200);
    token = await t.login();
    const after = (await call(token, 'GET', apiPaths.preferences)).json().data;
    expect(after.colorMode).toBe('dark');
    expect(after.lists.devices.pageSize).toBe(100);
    expect(await colorMode(other)).toBe('system');

    await call(token, 'PUT', apiPaths.colorMode, { colorMode: 'light' });
    expect(await colorMode(token)).toBe('light');
  });

  it('names the field in a 400 and keeps what was saved', async () => {
    const cases: Array<[object, string]> = [
      [{ colorMode: 'blue' }, preferenceMessages.invalidColorMode],
      [{}, 'colorMode'],
      [{ colorMode: 'dark', contrast: 'high' }, 'contrast'],
    ];
    for (const [body, message] of cases) {
      const res = await call(token, 'PUT', apiPaths.colorMode, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toContain(message);
    }
    expect(await colorMode(token)).toBe('light');
  });
});

describe('saved views', () => {
  const views = async (as: string, list = 'devices') =>
    (await call(as, 'GET', `${apiPaths.savedViews}?list=${list}`)).json().data.views as SavedView[];

  it("lists an admin's own views and every shared one, by name", async () => {
    const mine = await call(token, 'POST', apiPaths.savedViews, {
      list: 'devices',
      name: 'Offline in Berlin',
      query: 'search=berlin&online=offline',
      shared: false,
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json()).toMatchObject({
      msg: preferenceMessages.viewSaved,
      data: { name: 'Offline in Berlin', query: 'search=berlin&online=offline', shared: false, mine: true },
    });
    await call(token, 'POST', apiPaths.savedViews, {
      list: 'devices',
      name: 'All never seen',
      query: 'online=never',
      shared: true,
    });
    await call(token, 'POST', apiPaths.savedViews, {
      list: 'logs',
      name: 'Errors',
      query: 'tab=error',
      shared: true,
    });

    expect((await views(token)).map((v) => v.name)).toEqual(['All never seen', 'Offline in Berlin']);
    const seen = await views(other);
    expect(seen.map((v) => [v.name, v.mine, v.shared])).toEqual([['All never seen', false, true]]);
    expect(seen[0]!.ownerName).toBe('admin');
    expect((await views(other, 'logs')).map((v) => v.name)).toEqual(['Errors']);
  });

  it('refuses a second view of the same name, a blank name and a long query, naming the field', async () => {
    const again = await call(token, 'POST', apiPaths.savedViews, {
      list: 'devices',
      name: 'offline in berlin',
      query: '',
      shared: true,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(preferenceMessages.viewNameTaken);
    // The other admin may use the name.
    const theirs = await call(other, 'POST', apiPaths.savedViews, {
      list: 'devices',
      name: 'Offline in Berlin',
      query: '',
      shared: false,
    });
    expect(theirs.statusCode).toBe(201);
    for (const [body, message] of [
      [{ list: 'devices', name: '  ', query: '', shared: false }, preferenceMessages.viewNameRequired],
      [
        { list: 'devices', name: 'Long', query: 'x'.repeat(1001), shared: false },
        'query must be at most 1000 characters',
      ],
      [{ list: 'devices', name: 'No share', query: '' }, 'shared'],
    ] as const) {
      const res = await call(token, 'POST', apiPaths.savedViews, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toContain(message);
    }
  });

  it('lets only the owner delete a view: another admin gets 403 on a shared one and 404 on a private one', async () => {
    const all = await views(token);
    const shared = all.find((v) => v.shared)!;
    const private_ = all.find((v) => !v.shared && v.mine)!;
    const refused = await call(other, 'DELETE', apiPaths.savedView(shared._id));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(preferenceMessages.viewNotYours);
    expect((await call(other, 'DELETE', apiPaths.savedView(private_._id))).statusCode).toBe(404);
    const deleted = await call(token, 'DELETE', apiPaths.savedView(shared._id));
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().msg).toBe(preferenceMessages.viewDeleted);
    expect((await views(other)).map((v) => v.name)).toEqual(['Offline in Berlin']);
    expect((await views(token)).map((v) => v.name)).toEqual(['Offline in Berlin']);
  });
});
