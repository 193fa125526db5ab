import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '#api/test/test-app.ts';
import { apiPaths } from '@app/contract/paths';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { machineWithSerial, subscriptionRequests } from './subscription-test-requests.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { created } = subscriptionRequests(() => ({ t, token }));

// Issue 34 item 1: the list links each subscription to its machine's Device Details.
it("names the machine's id in the subscription list and in the answer to its creation", async () => {
  const deviceId = await machineWithSerial(t, 'SN-LINKED');
  const sub = await created({ machineSerialNumber: 'sn-linked' });
  expect(sub).toMatchObject({ deviceId });
  const res = await t.injectAs(token, {
    method: 'GET',
    url: `${apiPaths.subscriptionsAll}?page=1&limit=10`,
  });
  expect(res.statusCode, res.body).toBe(200);
  const listed = (res.json().data.subscriptions as { _id: string; deviceId: string | null }[]).find(
    (s) => s._id === sub._id,
  );
  expect(listed?.deviceId).toBe(deviceId);
});
