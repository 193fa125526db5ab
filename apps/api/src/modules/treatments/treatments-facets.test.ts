import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { devices } from '#api/db/schema/devices.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { treatmentDailyCounts } from '#api/db/schema/dashboard.ts';
import { csvCells } from '#api/test/csv-file.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Issue 35 item 7: Treatment Records list the latest *started* treatment first (not the latest
 * record written), count a treatment on the day it started (list, export and dashboard alike), and
 * offer facets (plan, treatment device) with counts under the other filters.
 */

let t: TestApp;
let token: string;
const day1 = Date.UTC(2026, 2, 10);
const at = (hours: number) => new Date(day1 + hours * 3600_000);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  const db = t.database.db;
  const [machine] = await db
    .insert(devices)
    .values({
      machineNumber: 'TF-1',
      serialNumber: 'TFS-1',
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Rome',
      country: 'Italy',
      address: 'Via 1',
    })
    .returning({ id: devices.id });
  const record = (
    userName: string,
    plan: string,
    device: string,
    start: Date | null,
    end: Date,
  ): typeof treatmentRecords.$inferInsert => ({
    deviceId: machine!.id,
    userName,
    treatmentPlan: plan,
    treatmentDevice: device,
    treatmentStartTime: start,
    treatmentEndTime: end,
    // As the machines' sync writes it: the record's time is the treatment's end.
    createdAt: end,
  });
  await db.insert(treatmentRecords).values([
    // Started first, ended last: by the record's time it would be the newest.
    record('Long Session', 'Knee', 'ShockWave S1', at(9), at(12)),
    record('Short Session', 'Knee', 'LaserPro', at(10), at(10.5)),
    record('Shoulder One', 'Shoulder', 'ShockWave S1', at(8), at(8.5)),
    // Started before midnight, ended after it: it took place on day 1.
    record('Night Session', 'Back', 'ShockWave S1', at(23.5), at(24.5)),
    // No start time from the app: its record's time stands in.
    record('No Start', 'Knee', 'ShockWave S1', null, at(30)),
  ]);
});
afterAll(() => t.close());

const get = async (url: string, query: Record<string, string> = {}) => {
  const res = await t.injectAs(token, { method: 'GET', url, query });
  return { status: res.statusCode, body: res.json() };
};
const names = async (query: Record<string, string> = {}) => {
  const { status, body } = await get(apiPaths.treatmentsAll, query);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.data.data as { userName: string }[]).map((r) => r.userName);
};

describe('Treatment Records: newest first by start time', () => {
  it('lists the latest started first, a record without a start by its own time', async () => {
    expect(await names()).toEqual([
      'No Start',
      'Night Session',
      'Short Session',
      'Long Session',
      'Shoulder One',
    ]);
  });

  it('counts a treatment on the day it started, in the list, its export and the dashboard days', async () => {
    expect(await names({ from: '2026-03-10', to: '2026-03-10' })).toEqual([
      'Night Session',
      'Short Session',
      'Long Session',
      'Shoulder One',
    ]);
    expect(await names({ from: '2026-03-11', to: '2026-03-11' })).toEqual(['No Start']);
    const file = await t.injectAs(token, {
      method: 'GET',
      url: apiPaths.treatmentsExport,
      query: { from: '2026-03-10', to: '2026-03-10', columns: 'userName,treatmentPlan' },
    });
    expect(file.statusCode, file.body).toBe(200);
    expect(csvCells(file.body)).toEqual([
      ['User Name', 'Treatment Plan'],
      // Masked by default (decision 058): the initials keep the order readable.
      ...(['Night Session', 'Short Session', 'Long Session', 'Shoulder One'] as const).map((n) => [
        expect.any(String),
        {
          'Night Session': 'Back',
          'Short Session': 'Knee',
          'Long Session': 'Knee',
          'Shoulder One': 'Shoulder',
        }[n],
      ]),
    ]);
    const days = await t.database.db.select().from(treatmentDailyCounts);
    expect(Object.fromEntries(days.map((d) => [d.day, d.n]))).toMatchObject({
      '2026-03-10': 4,
      '2026-03-11': 1,
    });
  });
});

describe('Treatment Records: facets', () => {
  it('offers each plan and treatment device with its count, most first', async () => {
    const { status, body } = await get(apiPaths.treatmentsFacets);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data).toEqual({
      treatmentPlans: [
        { value: 'Knee', label: 'Knee', count: 3 },
        { value: 'Back', label: 'Back', count: 1 },
        { value: 'Shoulder', label: 'Shoulder', count: 1 },
      ],
      treatmentDevices: [
        { value: 'ShockWave S1', label: 'ShockWave S1', count: 4 },
        { value: 'LaserPro', label: 'LaserPro', count: 1 },
      ],
    });
  });

  it("counts under the other filters, a facet's own choice leaving its values to switch to", async () => {
    const { body } = await get(apiPaths.treatmentsFacets, {
      treatmentDevice: 'ShockWave S1',
      treatmentPlan: 'Knee',
      to: '2026-03-10',
    });
    expect(body.data).toEqual({
      // Device ShockWave S1 on day 1: Long Session (Knee), Shoulder One, Night Session (Back).
      treatmentPlans: [
        { value: 'Back', label: 'Back', count: 1 },
        { value: 'Knee', label: 'Knee', count: 1 },
        { value: 'Shoulder', label: 'Shoulder', count: 1 },
      ],
      // Plan Knee on day 1: Long Session (ShockWave S1), Short Session (LaserPro).
      treatmentDevices: [
        { value: 'LaserPro', label: 'LaserPro', count: 1 },
        { value: 'ShockWave S1', label: 'ShockWave S1', count: 1 },
      ],
    });
  });

  it('filters the list and its export by plan and treatment device', async () => {
    expect(await names({ treatmentPlan: 'Knee' })).toEqual(['No Start', 'Short Session', 'Long Session']);
    expect(await names({ treatmentPlan: 'Knee', treatmentDevice: 'LaserPro' })).toEqual(['Short Session']);
    expect(await names({ treatmentPlan: 'knee' })).toEqual([]);
    const file = await t.injectAs(token, {
      method: 'GET',
      url: apiPaths.treatmentsExport,
      query: { treatmentDevice: 'LaserPro', columns: 'treatmentDevice' },
    });
    expect(csvCells(file.body)).toEqual([['Treatment Device'], ['LaserPro']]);
  });

  it('names a bad facet value in a 400', async () => {
    for (const url of [apiPaths.treatmentsAll, apiPaths.treatmentsFacets, apiPaths.treatmentsExport]) {
      const plan = await get(url, { treatmentPlan: 'x'.repeat(201) });
      expect(plan).toMatchObject({
        status: 400,
        body: { msg: 'treatmentPlan must be 1 to 200 characters' },
      });
      const device = await get(url, { treatmentDevice: ' ' });
      expect(device).toMatchObject({
        status: 400,
        body: { msg: 'treatmentDevice must be 1 to 200 characters' },
      });
    }
    expect((await get(apiPaths.treatmentsFacets, { page: '1' })).status).toBe(400);
  });
});
