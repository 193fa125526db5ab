// `npm run bench:instances`: what a second API instance costs (issue 36, Numbers). Two instances of
// this checkout on a fresh PostgreSQL database and one Redis prefix, and two nginx balancers (from
// Debian's package) in front of them on the same run: one sends everything to the first instance,
// the other round robin to both. Provisions BENCH_MACHINES (1,000) machines through the admin API,
// then BENCH_ROUNDS (3) alternating rounds of BENCH_SECONDS (10) each, through each balancer:
//   - heartbeats at 1,000/s and the console's device list (page 1) at 300/s, open loop, the same
//     offered load on both sides: the API's CPU time per request (utime + stime of every instance,
//     from /proc, over the requests answered); target: two instances within 10 % of one. Then the
//     most each side answers (heartbeats 32 in flight, the list 16), with its CPU per request at
//     saturation for reference (on 2 cores two saturated instances contend with PostgreSQL, nginx
//     and the load generator: that measures the machine, not the instance's cost);
//   - heartbeats at 1,000/s through the two-instance balancer: p99 within 50 ms.
// Then both instances idle for BENCH_IDLE_SECONDS (60), their jobs running: each one's CPU as a share
// of a core, target under 1 %. The machine's 2 cores are shared by the instances, PostgreSQL, nginx
// and the load generator, so this measures cost, not speed-up. Medians of the rounds; writes
// bench/results/instances-<date>.{json,md} (with the capacity those per-request costs give); exit 1
// when a target is missed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiPaths } from '@app/contract/paths';
import { missingForSuite, startCluster, freePort } from '../apps/api/src/hardening/cluster.ts';
import { hardeningAdmin, login } from '../apps/api/src/hardening/api-process.ts';
import { startNginx } from '../apps/api/src/hardening/nginx-balancer.ts';
import { AdminClient } from '../tools/fleet-simulator/admin-client.ts';
import { closedLoop, createLoadClient, openLoop, percentiles, type Sample } from './ingest-load.ts';
import { provisionFleet } from './ingest-provision.ts';
import { mediansOf } from './stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const machineCount = Number(process.env.BENCH_MACHINES ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const targets = { cpuRatio: 1.1, heartbeatP99Ms: 50, idleCorePercent: 1 };
/** The offered loads the CPU per request is measured at, on one instance and on two. */
const costRates = { heartbeat: 1000, list: 300 };
/** The capacity table's fleet: the default heartbeat every 5 minutes, a log batch with each. */
const heartbeatSeconds = 300;

const clockTicks = 100;
/** CPU-seconds this process has used (Linux /proc: utime + stime, in clock ticks). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
};

const missing = await missingForSuite({ nginx: true });
if (missing) {
  console.error(`bench:instances needs ${missing}`);
  process.exit(1);
}
const loadAtStart = os.loadavg()[0] ?? 0;
// One address enrols the whole fleet and each machine calls many times a second: no limits here.
const cluster = await startCluster(2, { ANON_RATE_PER_MINUTE: '1000000', DEVICE_RATE_PER_MINUTE: '1000000' });
const pids = cluster.instances.map((i) => i.pid);
const oneBalancer = await startNginx(await freePort(), [cluster.upstreams[0]!]);
let failed = false;
try {
  const admin = new AdminClient({ baseUrl: cluster.url }, hardeningAdmin.email, hardeningAdmin.password);
  console.error(`provisioning ${machineCount} machines through ${cluster.url}...`);
  const fleet = await provisionFleet(admin, cluster.url, machineCount, 0);
  const token = await login(cluster.url);
  const sides = {
    one: createLoadClient(oneBalancer.url, 64),
    two: createLoadClient(cluster.url, 64),
  };
  const heartbeatBody = JSON.stringify({
    versionCode: 42,
    versionName: '4.2.0',
    latitude: 52.52,
    longitude: 13.405,
  });
  const machine = (n: number) => fleet.machines[n % fleet.machines.length]!;
  const heartbeat = (c: (typeof sides)['one']) => (n: number) =>
    c.post(apiPaths.appHeartbeat, machine(n).device, heartbeatBody);
  const deviceList = (c: (typeof sides)['one']) => () =>
    c.get(`${apiPaths.machines}?page=1&limit=10`, { authorization: `Bearer ${token}` });
  // Every instance has seen every machine and the session before any timing (caches filled).
  for (const c of [sides.one, sides.two])
    for (let n = 0; n < fleet.machines.length; n += 16) {
      await Promise.all(Array.from({ length: 16 }, (_, i) => heartbeat(c)(n + i)));
      await deviceList(c)();
    }

  /** A load's requests per second and the instances' CPU time per request. */
  const costed = async (run: () => Promise<Sample>) => {
    const before = pids.map(cpuSeconds);
    const sample = await run();
    // The check-ins of the last second are written a second later (decision 022): count them too.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const used = pids.map((pid, i) => cpuSeconds(pid) - before[i]!).reduce((a, b) => a + b, 0);
    const answered = sample.count - sample.failures;
    if (sample.failures > 0) console.error(`  ${sample.failures} failed: ${JSON.stringify(sample.statuses)}`);
    return {
      perSecond: Math.round((answered * 1000) / sample.elapsedMs),
      cpuMicros: Math.round((used * 1e6) / Math.max(1, answered)),
    };
  };
  const roundResults: Record<string, number>[] = [];
  for (let round = 1; round <= rounds; round++) {
    const r: Record<string, number> = {};
    const order = round % 2 ? (['one', 'two'] as const) : (['two', 'one'] as const);
    for (const side of order) {
      // Cost at the same offered load on both sides (a fleet's rate does not grow with the
      // instances), below what one instance saturates at; then the most each side answers.
      const hb = await costed(() => openLoop(costRates.heartbeat, seconds * 1000, heartbeat(sides[side])));
      const list = await costed(() => openLoop(costRates.list, seconds * 1000, deviceList(sides[side])));
      const hbMost = await costed(() => closedLoop(32, seconds * 1000, heartbeat(sides[side])));
      const listMost = await costed(() => closedLoop(16, seconds * 1000, deviceList(sides[side])));
      r[`${side}HeartbeatsPerSecond`] = hbMost.perSecond;
      r[`${side}HeartbeatCpuMicros`] = hb.cpuMicros;
      r[`${side}HeartbeatCpuMicrosSaturated`] = hbMost.cpuMicros;
      r[`${side}ListPerSecond`] = listMost.perSecond;
      r[`${side}ListCpuMicros`] = list.cpuMicros;
      r[`${side}ListCpuMicrosSaturated`] = listMost.cpuMicros;
    }
    const at1000 = await openLoop(1000, seconds * 1000, heartbeat(sides.two));
    const p = percentiles(at1000.latencies);
    r.twoHeartbeatAt1000P50Ms = p.p50;
    r.twoHeartbeatAt1000P99Ms = p.p99;
    r.twoHeartbeatAt1000Failures = at1000.failures;
    r.heartbeatCpuRatio = Math.round((r.twoHeartbeatCpuMicros! / r.oneHeartbeatCpuMicros!) * 1000) / 1000;
    r.listCpuRatio = Math.round((r.twoListCpuMicros! / r.oneListCpuMicros!) * 1000) / 1000;
    console.error(`round ${round}: ${JSON.stringify(r)}`);
    roundResults.push(r);
  }
  const figures = mediansOf(roundResults);

  console.error(`both instances idle for ${idleSeconds} s...`);
  const idleBefore = pids.map(cpuSeconds);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const idleCorePercent = pids.map(
    (pid, i) => Math.round(((cpuSeconds(pid) - idleBefore[i]!) / idleSeconds) * 1000) / 10,
  );

  const checks = [
    {
      target: `CPU per heartbeat, two instances / one <= ${targets.cpuRatio}`,
      value: figures.heartbeatCpuRatio!,
      met: figures.heartbeatCpuRatio! <= targets.cpuRatio,
    },
    {
      target: `CPU per device-list request, two instances / one <= ${targets.cpuRatio}`,
      value: figures.listCpuRatio!,
      met: figures.listCpuRatio! <= targets.cpuRatio,
    },
    {
      target: `heartbeat p99 at 1,000/s through two instances <= ${targets.heartbeatP99Ms} ms`,
      value: figures.twoHeartbeatAt1000P99Ms!,
      met:
        figures.twoHeartbeatAt1000P99Ms! <= targets.heartbeatP99Ms &&
        figures.twoHeartbeatAt1000Failures === 0,
    },
    {
      target: `each idle instance's jobs < ${targets.idleCorePercent} % of a core`,
      value: Math.max(...idleCorePercent),
      met: idleCorePercent.every((v) => v < targets.idleCorePercent),
    },
  ];
  failed = checks.some((c) => !c.met);

  // Capacity: CPU-seconds a second the fleet asks for, from the two-instance costs, per core.
  const capacity = [10_000, 100_000].map((machines) => {
    const heartbeatsPerSecond = machines / heartbeatSeconds;
    const coreShare = (heartbeatsPerSecond * figures.twoHeartbeatCpuMicros!) / 1e6;
    return {
      machines,
      heartbeatsPerSecond: Math.round(heartbeatsPerSecond),
      apiCores: Math.round(coreShare * 1000) / 1000,
    };
  });
  const loadAtEnd = os.loadavg()[0] ?? 0;
  const result = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage: { atStart: loadAtStart, atEnd: loadAtEnd },
    },
    settings: { machines: machineCount, rounds, seconds, idleSeconds },
    medians: figures,
    idleCorePercent,
    capacity,
    rounds: roundResults,
    checks,
  };
  const day = result.date.slice(0, 10);
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `instances-${day}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const m = figures;
  writeFileSync(
    path.join(dir, `instances-${day}.md`),
    [
      `# One API instance and two, behind nginx (${day})`,
      '',
      `\`npm run bench:instances\` on ${result.machine.cpus} cores shared by the instances, PostgreSQL, nginx and the load generator: 1-minute load average ${loadAtStart.toFixed(1)} at start, ${loadAtEnd.toFixed(1)} at the end. Median of ${rounds} alternating rounds of ${seconds} s; ${machineCount} machines. CPU is every instance's utime + stime over the requests answered.`,
      '',
      '| target | median | |',
      '|---|---:|---|',
      ...checks.map((c) => `| ${c.target} | ${c.value} | ${c.met ? 'met' : 'not met'} |`),
      '',
      '| measure | one instance | two instances |',
      '|---|---:|---:|',
      `| heartbeats/s, 32 in flight | ${m.oneHeartbeatsPerSecond} | ${m.twoHeartbeatsPerSecond} |`,
      `| CPU µs per heartbeat at ${costRates.heartbeat}/s | ${m.oneHeartbeatCpuMicros} | ${m.twoHeartbeatCpuMicros} |`,
      `| CPU µs per heartbeat, 32 in flight | ${m.oneHeartbeatCpuMicrosSaturated} | ${m.twoHeartbeatCpuMicrosSaturated} |`,
      `| device list/s, 16 in flight | ${m.oneListPerSecond} | ${m.twoListPerSecond} |`,
      `| CPU µs per device-list request at ${costRates.list}/s | ${m.oneListCpuMicros} | ${m.twoListCpuMicros} |`,
      `| CPU µs per device-list request, 16 in flight | ${m.oneListCpuMicrosSaturated} | ${m.twoListCpuMicrosSaturated} |`,
      `| heartbeat p50 / p99 ms at 1,000/s | | ${m.twoHeartbeatAt1000P50Ms} / ${m.twoHeartbeatAt1000P99Ms} |`,
      `| idle: each instance's CPU, % of a core | | ${idleCorePercent.join(' / ')} |`,
      '',
      `Capacity at a heartbeat every ${heartbeatSeconds} s: ${capacity.map((c) => `${c.machines.toLocaleString('en')} machines ask ${c.heartbeatsPerSecond} heartbeats/s, ${c.apiCores} of a core of API time`).join('; ')}.`,
      '',
    ].join('\n'),
  );
  for (const c of checks) console.log(`${c.met ? 'met    ' : 'NOT MET'}  ${c.target}: ${c.value}`);
  sides.one.close();
  sides.two.close();
} catch (err) {
  failed = true;
  console.error(err);
  for (const i of cluster.instances) console.error(i.output().slice(-3000));
} finally {
  await oneBalancer.stop();
  await cluster.stop();
}
process.exit(failed ? 1 : 0);
