import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@app/fake-data/random';
import { createStorage } from '../lib/storage/create-storage.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { seedAppUpdates } from './app-updates-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the demo app updates', () => {
  it('adds a few updates, Flexible and Force, whose APKs download intact', async () => {
    await seedAppUpdates(t.database.db, createRng(1), {
      now: new Date(),
      devices: [],
      storage: createStorage(t.config),
    });
    const token = await t.login();
    const list = (
      await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/system/updates/all?limit=100' })
    ).json().data;
    expect(list.total).toBeGreaterThanOrEqual(4);
    expect(new Set(list.allSystems.map((u: { updateType: number }) => u.updateType))).toEqual(
      new Set([1, 2]),
    );
    for (const update of list.allSystems) {
      const res = await t.app.inject({ method: 'GET', url: new URL(update.apkUrl).pathname });
      expect(res.statusCode).toBe(200);
      expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(update.apkSha256);
    }
  });
});
