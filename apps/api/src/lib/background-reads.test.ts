import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logInWords } from '@app/contract/log-words';
import { apiPaths } from '@app/contract/paths';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * The console's own background reads leave no access row (issue 35 item 10): of the latest 100 rows,
 * 39 were its polls of the session, the profile, the settings and the bell. What an admin does
 * still does, and so does a background read that was refused.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const get = async (url: string, as = token) => (await t.injectAs(as, { method: 'GET', url })).statusCode;

describe("the console's background reads", () => {
  it('leave no access row when answered; a list the admin opens does, in words', async () => {
    const polls = await accessRowsOf(t, async () => {
      for (const url of [apiPaths.session, apiPaths.profile, apiPaths.preferences, apiPaths.alarmsCount])
        expect(await get(url)).toBe(200);
    });
    expect(polls).toEqual([]);
    const opened = await accessRowsOf(t, async () => expect(await get(apiPaths.alarms)).toBe(200));
    expect(opened.map((r) => r.resource)).toEqual([`GET ${apiPaths.alarms}`]);
    expect(logInWords(opened[0]!)?.text).toBe('Listed alarms');
  });

  it('leave one when refused', async () => {
    const { token: limited } = await signInWithPermissions(t, token, []);
    const refused = await accessRowsOf(t, async () =>
      expect(await get(apiPaths.alarmsCount, limited)).toBe(403),
    );
    expect(refused.map((r) => [r.resource, r.statusCode])).toEqual([[`GET ${apiPaths.alarmsCount}`, 403]]);
  });
});
