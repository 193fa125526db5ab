import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLimit, bulkMessages } from '@app/contract/bulk-actions';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { accessRowsOf } from '#api/test/audit-rows.ts';
import { deviceForm } from '#api/test/device-fixtures.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { deviceRequests, missingId } from './device-test-requests.ts';

/* Decision 055: bulk Activate / Deactivate, on the devices picked or on every device the list matches. */

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await signedInApp()));
afterAll(() => t.close());
const { add, list, bulkStatus: bulk, statusOf } = deviceRequests(() => ({ t, token }));

/** Adds devices whose location carries `tag`, so a search finds exactly them. */
async function addTagged(tag: string, n: number, over: Record<string, unknown> = {}) {
  const added: { _id: string; machineNumber: string }[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(1000);
    const res = await add(deviceForm({ location: `Ward ${tag} ${i}`, ...over }));
    expect(res.statusCode, res.body).toBe(201);
    added.push(res.json().data);
  }
  return added;
}

describe('POST /api/v1/admin/machine/bulk-status with ids', () => {
  it('deactivates the devices picked and answers each one, an unknown id refused with the reason', async () => {
    const [a, b] = await addTagged('picked', 2);
    const res = await bulk({ ids: [a!._id, missingId, b!._id], status: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code: 200,
      msg: '2 done, 1 refused',
      data: {
        results: [
          { _id: a!._id, machineNumber: a!.machineNumber, outcome: 'done' },
          { _id: missingId, outcome: 'refused', reason: 'Device not found' },
          { _id: b!._id, machineNumber: b!.machineNumber, outcome: 'done' },
        ],
        done: 2,
        refused: 1,
      },
    });
    expect(await statusOf(a!._id)).toBe(1);
    expect(await statusOf(b!._id)).toBe(1);
  });

  it('activates again, takes the status as the select sends it, and answers a repeated id once', async () => {
    const [a] = await addTagged('again', 1, { status: 1 });
    const res = await bulk({ ids: [a!._id, a!._id.toUpperCase()], status: '2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ done: 1, refused: 0, results: [{ _id: a!._id }] });
    expect(await statusOf(a!._id)).toBe(2);
  });

  it('leaves devices not picked as they were', async () => {
    const [picked, other] = await addTagged('untouched', 2);
    await bulk({ ids: [picked!._id], status: 1 });
    expect(await statusOf(other!._id)).toBe(2);
  });
});

describe('POST /api/v1/admin/machine/bulk-status with allMatching', () => {
  it("changes exactly the devices the list's search shows, in the list's order", async () => {
    const tag = randomBytes(3).toString('hex');
    const matching = await addTagged(tag, 3);
    const [outside] = await addTagged('elsewhere', 1);
    const shown = (await list({ search: tag.toUpperCase(), limit: 100 })).json().data.allDevices as {
      _id: string;
    }[];
    const res = await bulk({ allMatching: { search: tag.toUpperCase() }, status: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.done).toBe(3);
    expect(res.json().data.results.map((r: { _id: string }) => r._id)).toEqual(shown.map((d) => d._id));
    expect(shown.map((d) => d._id).sort()).toEqual(matching.map((d) => d._id).sort());
    for (const d of matching) expect(await statusOf(d._id)).toBe(1);
    expect(await statusOf(outside!._id)).toBe(2);
  });

  it('applies the online filter as the list does (never seen: every device here)', async () => {
    const tag = randomBytes(3).toString('hex');
    await addTagged(tag, 2);
    const res = await bulk({ allMatching: { search: tag, online: 'online' }, status: 1 });
    expect(res.json().data).toEqual({ results: [], done: 0, refused: 0 });
    const never = await bulk({ allMatching: { search: tag, online: 'never' }, status: 1 });
    expect(never.json().data.done).toBe(2);
  });
});

describe('POST /api/v1/admin/machine/bulk-status: refusals of the whole request', () => {
  it.each([
    [{ status: 1 }, bulkMessages.idsRequired],
    [{ ids: [missingId], allMatching: {}, status: 1 }, bulkMessages.idsOrAllMatching],
    [{ ids: [], status: 1 }, bulkMessages.idsEmpty],
    [{ ids: ['nope'], status: 1 }, bulkMessages.idInvalid],
    [{ ids: 'x', status: 1 }, bulkMessages.idsNotList],
    [{ ids: [missingId] }, 'Status is required'],
    [{ ids: [missingId], status: 3 }, 'Status must be 1 (Inactive) or 2 (Active)'],
    [{ allMatching: { region: 'Oslo' }, status: 1 }, 'allMatching: unknown filter: region'],
    [{ allMatching: { online: 'maybe' }, status: 1 }, 'online must be one of online, offline, never'],
    [{ ids: [missingId], status: 1, force: true }, 'Unknown field: force'],
  ])('answers 400 to %j naming the field', async (payload, message) => {
    const res = await bulk(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toContain(message);
  });

  it(`refuses more than ${bulkLimit} ids`, async () => {
    const ids = Array.from({ length: bulkLimit + 1 }, () => crypto.randomUUID());
    const res = await bulk({ ids, status: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('ids may name at most 10,000 rows');
  });

  it("needs the single status change's permission, devices.edit", async () => {
    const [a] = await addTagged('viewer', 1);
    const viewer = await signInWithPermissions(t, token, ['devices.view']);
    const res = await bulk({ ids: [a!._id], status: 1 }, viewer.token);
    expect(res.statusCode).toBe(403);
    expect(await statusOf(a!._id)).toBe(2);
  });
});

describe('the audit row of a bulk status change', () => {
  it('is one row naming every device changed and the field, not the unknown id', async () => {
    const [a, b] = await addTagged('audited', 2);
    const rows = await accessRowsOf(t, () => bulk({ ids: [a!._id, b!._id, missingId], status: 1 }));
    const bulkRows = rows.filter((r) => r.resource === 'POST /api/v1/admin/machine/bulk-status');
    expect(bulkRows).toHaveLength(1);
    expect(bulkRows[0]).toMatchObject({ recordKind: 'device', recordId: null, changedFields: ['status'] });
    expect([...bulkRows[0]!.listedIds!].sort()).toEqual([a!._id, b!._id].sort());
  });
});
