// Stop PostgreSQL (fast shutdown, as in a restart or a failover) while the real API server takes
// requests, then start it again. Meanwhile every request must be answered 503 with the envelope,
// quickly (no 500, no hang) and health must say the database is down; afterwards requests must
// succeed again from the same API process, never restarted.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiPaths } from '@app/contract/paths';
import { afterAll, describe, expect, it } from 'vitest';
import { apiEnv, call, login, startApi } from './api-process.ts';
import { createPrivatePostgres, privatePostgresAvailable } from './private-postgres.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';
import { bodyFor } from './write-stream.ts';

const apiPort = 3603;
const pgPort = 5440;
const outageMs = Number(process.env.PG_OUTAGE_MS ?? 6000);
// An answer slower than this during the outage counts as a hang.
const answerBoundMs = 8000;

type Answer = {
  phase: 'before' | 'outage' | 'after';
  status: number | 'no answer';
  ms: number;
  body: string;
  at: number;
};

const figures: Figure[] = [];
let passed = false;
afterAll(() => {
  writeHardeningResult({
    suite: 'faults-postgres-restart',
    title: 'Faults: PostgreSQL stopped and started under load',
    passed,
    database: 'PostgreSQL (a private cluster, stopped and started by the test)',
    figures,
    notes: [
      `A private cluster (initdb, pg_ctl) serves the real API server; four clients list, read and create devices in a loop; the cluster is stopped with a fast shutdown for ${outageMs / 1000} s, then started again. The API process is never restarted.`,
      'During the outage every answer must be 503 with the { code, msg, data } envelope within the bound (DATABASE_CONNECT_TIMEOUT_MS, default 5 s, caps the wait for a connection) and GET /api/health must answer 503 with database "down".',
    ],
  });
});

describe('PostgreSQL stopped and started while the API runs', () => {
  it('answers 503 while the database is down and recovers without an API restart', async () => {
    // Not skipped when missing: the proof is required, so its absence must fail loudly.
    if (!privatePostgresAvailable())
      throw new Error('initdb and pg_ctl not found (set PG_BIN_DIR to their folder)');
    const cluster = createPrivatePostgres(pgPort);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pg-restart-'));
    const api = await startApi(apiEnv({ port: apiPort, dataDir, env: { DATABASE_URL: cluster.url } }));
    const answers: Answer[] = [];
    let phase: Answer['phase'] = 'before';
    let stopped = false;
    try {
      const token = await login(api.url);
      const roles = (await call(api.url, token, 'GET', apiPaths.rolesAll)).json?.data as {
        roles: Array<{ _id: string; type: string }>;
      };
      const roleId = roles.roles.find((r) => r.type === 'admin')!._id;
      const first = await call(
        api.url,
        token,
        'POST',
        apiPaths.machineAdd,
        bodyFor('device', 'pgr', 0, roleId),
      );
      expect(first.status).toBe(201);
      const deviceId = (first.json?.data as { _id: string })._id;

      let n = 1;
      const requests: Array<() => Promise<Awaited<ReturnType<typeof call>>>> = [
        () =>
          call(api.url, token, 'GET', `${apiPaths.machines}?page=1&limit=10`, undefined, answerBoundMs * 2),
        () => call(api.url, token, 'GET', apiPaths.machine(deviceId), undefined, answerBoundMs * 2),
        () =>
          call(
            api.url,
            token,
            'POST',
            apiPaths.machineAdd,
            bodyFor('device', 'pgr', n++, roleId),
            answerBoundMs * 2,
          ),
        () => call(api.url, token, 'GET', apiPaths.usersAll, undefined, answerBoundMs * 2),
      ];
      const loops = requests.map(async (request) => {
        while (!stopped) {
          const at = Date.now();
          const p = phase;
          try {
            const res = await request();
            answers.push({
              phase: p,
              status: res.status,
              ms: Date.now() - at,
              body: res.text.slice(0, 300),
              at,
            });
          } catch (error) {
            answers.push({ phase: p, status: 'no answer', ms: Date.now() - at, body: String(error), at });
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      });

      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stopBegan = Date.now();
      await cluster.stop();
      const downAt = Date.now();
      phase = 'outage';
      await new Promise((resolve) => setTimeout(resolve, 500));
      const health = await call(api.url, token, 'GET', apiPaths.health, undefined, answerBoundMs * 2);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageMs - (Date.now() - downAt))));
      // Answers started before this point belong to the outage, whenever they finish.
      phase = 'after';
      await cluster.start();
      const upAt = Date.now();
      // Recovery: the first 2xx list answer after the database is back.
      let recoveredAt = 0;
      while (Date.now() - upAt < 30_000) {
        const res = await call(api.url, token, 'GET', apiPaths.machines, undefined, answerBoundMs * 2);
        if (res.status === 200) {
          recoveredAt = Date.now();
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const afterFrom = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      stopped = true;
      await Promise.all(loops);

      const envelope503 = (a: Answer) =>
        a.status === 503 && /^\{"code":503,"msg":"[^"]+","data":null\}$/.test(a.body);
      const before = answers.filter((a) => a.at + a.ms < stopBegan);
      // Requests in flight while the server shut down: either served (2xx) or 503, nothing else.
      const during = answers.filter((a) => a.at + a.ms >= stopBegan && a.at < downAt);
      const duringBad = during.filter((a) => !(a.status === 200 || a.status === 201 || envelope503(a)));
      const outage = answers.filter((a) => a.phase === 'outage' && a.at >= downAt);
      const outageBad = outage.filter((a) => !envelope503(a) || a.ms > answerBoundMs);
      const settled = answers.filter((a) => a.phase === 'after' && a.at >= afterFrom);
      const fiveHundreds = answers.filter(
        (a) => typeof a.status === 'number' && a.status >= 500 && a.status !== 503,
      );
      const hangs = answers.filter((a) => a.status === 'no answer' || a.ms > answerBoundMs);

      figures.push(
        { name: 'Requests before the stop (all 2xx)', value: before.length },
        { name: 'Requests in flight during the shutdown (2xx or 503)', value: during.length },
        { name: 'Requests during the outage', value: outage.length },
        {
          name: 'Answered 503 with the envelope during the outage',
          value: outage.length - outageBad.length,
          target: 'all',
        },
        { name: 'Answers other than 503 during the outage', value: outageBad.length, target: '0' },
        { name: '500 (or other non-503 5xx) answers', value: fiveHundreds.length, target: '0' },
        { name: 'Requests left hanging (no answer within the bound)', value: hangs.length, target: '0' },
        {
          name: 'Slowest answer during the outage',
          value: Math.max(0, ...outage.map((a) => a.ms)),
          unit: 'ms',
          target: `< ${answerBoundMs} ms`,
        },
        {
          name: 'Health during the outage',
          value: `${health.status} ${JSON.stringify((health.json?.data as object) ?? null)}`,
          target: '503 database down',
        },
        {
          name: 'Time from database start to first 2xx',
          value: recoveredAt ? recoveredAt - upAt : 'never',
          unit: recoveredAt ? 'ms' : undefined,
        },
        { name: 'Requests after recovery', value: settled.length },
        {
          name: 'Non-2xx after recovery',
          value: settled.filter((a) => typeof a.status !== 'number' || a.status >= 300).length,
          target: '0',
        },
        {
          name: 'API restarts needed',
          value: api.child.exitCode === null && api.child.signalCode === null ? 0 : 1,
          target: '0',
        },
      );

      expect(before.length).toBeGreaterThan(0);
      expect(before.filter((a) => a.status !== 200 && a.status !== 201)).toEqual([]);
      expect(duringBad, 'answers while the server shut down').toEqual([]);
      expect(outage.length).toBeGreaterThan(0);
      expect(outageBad, 'answers during the outage').toEqual([]);
      expect(fiveHundreds).toEqual([]);
      expect(hangs).toEqual([]);
      expect(health.status).toBe(503);
      expect(health.json?.data).toEqual({ status: 'unavailable', database: 'down' });
      expect(recoveredAt, 'the API answered 2xx again once the database was back').toBeGreaterThan(0);
      expect(settled.length).toBeGreaterThan(0);
      expect(settled.filter((a) => a.status !== 200 && a.status !== 201)).toEqual([]);
      // The same process served before, during and after.
      expect(api.child.exitCode).toBeNull();
      passed = true;
    } finally {
      stopped = true;
      await api.kill('SIGTERM');
      cluster.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
