// Issue 36's "done when": ten API processes started at the same moment on an empty PostgreSQL
// database all answer /api/health. db/startup-lock.pg.test.ts proves the lock in one process (ten
// openDatabase + bootstrap calls); this starts the real server ten times, so everything a start does
// on the database runs at once: the migrations and the job queue's schema under the start-up lock,
// the first admin, the job queues (made under a lock of their own) and the notice connections.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@app/contract/paths';
import { hardeningAdmin, type ApiProcess } from './api-process.ts';
import {
  freePort,
  instanceEnv,
  missingForSuite,
  request,
  scratchDatabase,
  startTogether,
  type ScratchDatabase,
} from './cluster.ts';

const missing = await missingForSuite({ nginx: false });
if (missing) console.log(`multi-instance start-up test skipped: ${missing}`);

const count = 10;
let database: ScratchDatabase | null = null;
const started: ApiProcess[] = [];
const dataDirs: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((api) => api.kill('SIGTERM')));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

describe.skipIf(missing !== null)('ten API instances started at the same moment', () => {
  it('on an empty PostgreSQL database all answer /api/health, with one first admin between them', async () => {
    database = await scratchDatabase('multi_start');
    const jwtSecret = randomBytes(32).toString('hex');
    const redisPrefix = `multi-start-${randomBytes(6).toString('hex')}:`;
    const ports: number[] = [];
    for (let i = 0; i < count; i++) ports.push(await freePort());
    const settings = ports.map((port) =>
      instanceEnv({
        port,
        databaseUrl: database!.url,
        jwtSecret,
        redisPrefix,
        publicUrl: `http://127.0.0.1:${ports[0]}`,
      }),
    );
    dataDirs.push(...settings.map((s) => s.dataDir));
    // All spawned in the same tick; startApi resolves once its instance answers /api/health 200.
    const starts = await startTogether(settings.map((s) => s.env));
    for (const s of starts) if (s.status === 'fulfilled') started.push(s.value);
    const failures = starts.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    expect(failures, 'instances that did not come up').toEqual([]);

    // Each still answers, with its database up, now that all ten are running.
    const health = await Promise.all(started.map((api) => request(`${api.url}${apiPaths.health}`)));
    expect(health.map((h) => h.status)).toEqual(Array(count).fill(200));
    const counts = await database.query(
      `select (select count(*)::int from users) as admins, (select count(*)::int from roles) as roles,
        (select count(*)::int from pgboss.queue where name = 'alarm-checks') as queues`,
    );
    // Two of the six roles are the fixed clinic roles of migration 0057.
    expect(counts).toEqual([{ admins: 1, roles: 6, queues: 1 }]);
    // The first admin signs in on any of them.
    const signIn = await request(`${started[count - 1]!.url}${apiPaths.login}`, {
      method: 'POST',
      body: { email: hardeningAdmin.email, password: hardeningAdmin.password },
    });
    expect(signIn.status).toBe(200);
    // Ten servers starting on 2 cores take about 30 s on an idle machine; more beside other work.
  }, 240_000);
});
