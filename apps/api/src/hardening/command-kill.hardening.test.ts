// kill -9 the real API server between handing a command to a machine and the machine's report of it,
// restart it on the same data, and check that the command reaches the machine again by the same id,
// is reported once, and ends succeeded with its delivery time. Twice per database: once killed at
// the hand-over (its mark, written behind the answer, may be lost with the process: delivery-marks.ts),
// once after the mark is written. Once on PostgreSQL and once on the embedded PGlite.
import { afterAll, describe, expect } from 'vitest';
import { commandPaths, type AppCommand, type Command } from '@app/contract/commands';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { DeviceClient } from '@app/fleet-simulator/device-client';
import { call, hardeningAdmin, login, startApi, type ApiProcess } from './api-process.ts';
import { itOnEachDatabase } from './kill-database.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';

const figures: Figure[] = [];
let allPassed = true;

afterAll(() => {
  writeHardeningResult({
    suite: 'faults-command-kill',
    title: 'Faults: kill -9 between a command and its report',
    passed: allPassed,
    database: 'PostgreSQL and PGlite (embedded)',
    figures,
    notes: [
      'An enrolled machine (the fleet simulator\'s client) is handed a "sync now" in its heartbeat; SIGKILL lands at once (the delivery mark may not be written yet), or once the console shows it delivered; the server restarts on the same data.',
      'Checked: the next heartbeat hands the same command (same id) again, its report is taken once (a repeated report answers the same state), nothing is handed after it, and the command ends succeeded with its delivery time.',
    ],
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const by = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > by) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('kill -9 between a command and its report', () => {
  itOnEachDatabase(
    'hands the command again by its id after the restart, and records one result',
    { name: 'cmdkill', ports: { PostgreSQL: 3621, PGlite: 3622 }, onFailure: () => (allPassed = false) },
    async (database, env) => {
      let api: ApiProcess = await startApi(env);
      try {
        const admin = new AdminClient({ baseUrl: api.url }, hardeningAdmin.email, hardeningAdmin.password);
        const device = await admin.addDevice({
          machineNumber: 'CK-1',
          serialNumber: 'SCK-1',
          location: 'Kill Clinic',
          latitude: 1,
          longitude: 2,
          city: 'Oslo',
          country: 'Norway',
          address: 'Gate 1',
        });
        const once = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
        const machine = new DeviceClient({ baseUrl: api.url, retry: once });
        await machine.enrol((await admin.issueEnrolmentCode(device._id)).code);
        const heartbeat = async () => (await machine.heartbeat(3, '1.0.0')).commands as AppCommand[];
        await heartbeat();

        for (const when of ['at the hand-over', 'after the delivery is written'] as const) {
          let token = await login(api.url);
          const read = async () =>
            (await call(api.url, token, 'GET', commandPaths.command(id))).json?.data as Command;
          const sent = await call(api.url, token, 'POST', commandPaths.deviceCommands(device._id), {
            kind: 'sync-now',
          });
          expect(sent.status, sent.text).toBe(201);
          const id = (sent.json?.data as Command)._id;
          const handed = await until('the hand-over', async () => {
            const list = await heartbeat();
            return list.length ? list : undefined;
          });
          expect(handed.map((c) => c._id)).toEqual([id]);
          if (when === 'after the delivery is written')
            await until('delivered', async () => ((await read()).state === 'delivered' ? true : undefined));
          await api.kill('SIGKILL');
          api = await startApi(env);
          token = await login(api.url);

          // The machine never reported: it is handed the same command again, by the same id.
          expect((await heartbeat()).map((c) => c._id)).toEqual([id]);
          const first = await machine.reportCommand(id, { ok: true, message: 'synced 3 items' });
          const again = await machine.reportCommand(id, { ok: false, message: 'late duplicate' });
          expect([first.state, again.state]).toEqual(['succeeded', 'succeeded']);
          expect(await heartbeat()).toEqual([]);
          const done = await until('the delivery time', async () => {
            const c = await read();
            return c.deliveredAt ? c : undefined;
          });
          expect(done).toMatchObject({ state: 'succeeded', message: 'synced 3 items' });
          figures.push({
            name: `${database}: killed ${when}: handed again and reported once`,
            value: 1,
            target: '1',
          });
        }
      } finally {
        await api.kill('SIGKILL');
      }
    },
  );
});
