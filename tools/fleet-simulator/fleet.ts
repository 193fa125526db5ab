import { randomBytes } from 'node:crypto';
import { consolePhone } from '@app/fake-data/people';
import { fakeClinic } from '@app/fake-data/places';
import { AdminClient, type Holdings } from './admin-client.ts';
import { seededRandom, tinyJpeg, tinyPng } from './fake-data.ts';
import { newHttpStats, type HttpStats } from './http.ts';
import { recordKinds, tally, type RecordKind } from './ledger.ts';
import { appVersion, SimMachine } from './machine.ts';
import { eachLimited, sleep } from './pool.ts';
import type { Progress } from './progress.ts';

/*
 * The fleet scenario (issue 13): provision machines and technicians as an admin does, enrol the
 * machines with their codes, let people on them record for `minutes`, take some offline (they queue)
 * and bring them back (they sync their backlog), re-send some batches on purpose, and finally
 * count through the console's lists that every machine holds each accepted record exactly once.
 * Every machine holds a licence it verified, and starts no treatment its licence refuses. Between
 * turns the machines wait for commands (the long-poll) and run what an admin sends them.
 */

export type FleetOptions = {
  url: string;
  adminEmail: string;
  adminPassword: string;
  devices: number;
  minutes: number;
  concurrency?: number;
  seed?: number;
  /** Share of machines that go offline for the first half of the run. */
  offlineShare?: number;
  resendShare?: number;
  badShare?: number;
  progress?: Progress;
  /** The machines' clock (their licence checks); default: the real one. */
  now?: () => Date;
  /** The licences' issuer, the server's PUBLIC_URL; default: `url`. */
  issuer?: string;
  /** Share of non-disruptive commands that fail on purpose ("storage busy, try again"); default 0.05. */
  commandFailShare?: number;
  /** Wait for commands with the long-poll between turns (default); false: only the heartbeat's. */
  longPoll?: boolean;
};

export type MachineReport = {
  machine: SimMachine;
  deviceId: string;
  technician: { userName: string; password: string; userId: string };
  expected: Record<RecordKind, number> & { technicians: number };
  held: Holdings | null;
  lastSeenAt: string | null;
  appVersionName: string | null;
};

export type FleetSummary = {
  devices: number;
  accepted: number;
  refused: number;
  /** Of those, the items made bad on purpose (badShare), which the server must refuse. */
  refusedMeant: number;
  duplicates: number;
  /** Accepted records the console does not show (must be 0 too). */
  missing: number;
  resent: number;
  resentSame: number;
  heartbeats: number;
  /** Treatments not started because a machine's licence refused them (each logged as an error). */
  refusedStarts: number;
  /** Treatments not started because a machine was on safety hold (each logged as an error). */
  heldStarts: number;
  /** Commands the machines ran (each once), and of those the ones they reported failed. */
  commandsRun: number;
  commandsFailed: number;
  http: HttpStats;
  surprises: string[];
  machines: MachineReport[];
};

const kindsHeld: Record<RecordKind, keyof Holdings> = {
  doctors: 'doctors',
  patients: 'patients',
  treatments: 'treatments',
  accessLogs: 'accessLogs',
  errorLogs: 'errorLogs',
};

export async function runFleet(options: FleetOptions): Promise<FleetSummary> {
  const { progress, concurrency = 12 } = options;
  const stats = newHttpStats();
  const http = { baseUrl: options.url, stats };
  const run = randomBytes(3).toString('hex');
  const random = seededRandom(options.seed ?? 13);
  const admin = new AdminClient(http, options.adminEmail, options.adminPassword);

  // A small pool of real pictures, shared: encoding one per treatment would only cost CPU.
  const pictures = [tinyPng(random), tinyPng(random), await tinyJpeg(random), await tinyJpeg(random)].map(
    (b) => b.toString('base64'),
  );

  await admin.signIn();
  const role = await admin.createAppRole(`Fleet technicians ${run}`);

  const reports: MachineReport[] = [];
  progress?.phase('provisioning', options.devices);
  await eachLimited(
    Array.from({ length: options.devices }, (_, i) => i),
    concurrency,
    async (i) => {
      const label = `${run}-${i + 1}`;
      const mine = seededRandom((options.seed ?? 13) * 7919 + i);
      const machine = new SimMachine(label, {
        http,
        random: mine,
        resendShare: options.resendShare ?? 0.2,
        badShare: options.badShare ?? 0.03,
        images: () => Array.from({ length: mine.int(1, 2) }, () => mine.pick(pictures)),
        now: options.now,
        issuer: options.issuer,
        commandFailShare: options.commandFailShare,
        // re-enrol: the technician issues a new code in the console, as for the first enrolment.
        enrolmentCode: async (deviceId) => (await admin.issueEnrolmentCode(deviceId)).code,
      });
      const place = machine.place;
      const device = await admin.addDevice({
        machineNumber: `SIM-${label}`,
        serialNumber: `SN-SIM-${label}`,
        ...fakeClinic(mine, place),
        city: place.city,
        country: place.country,
      });
      const { code } = await admin.issueEnrolmentCode(device._id);
      await machine.client.enrol(code);
      const technician = { userName: `tech-${label}`, password: `Tech-${randomBytes(6).toString('hex')}` };
      const user = await admin.addTechnician(role._id, [device._id], technician, {
        lastName: `Technician ${i + 1}`,
        email: `tech-${label}@fleet.example`,
        phone: consolePhone(mine),
      });
      await machine.heartbeat();
      await machine.setUpPeople(technician, role.roleId);
      reports[i] = {
        machine,
        deviceId: device._id,
        technician: { ...technician, userId: user._id },
        expected: { ...tally(machine.ledger).accepted, technicians: 1 },
        held: null,
        lastSeenAt: null,
        appVersionName: null,
      };
      progress?.advance();
    },
  );

  // The run: a tick every few seconds; each machine checks in, records, and syncs when online.
  const tickMs = Math.min(5_000, Math.max(1_000, (options.minutes * 60_000) / 4));
  const ticks = Math.max(2, Math.round((options.minutes * 60_000) / tickMs));
  const offlineCount =
    options.devices < 2 ? 0 : Math.max(1, Math.round(options.devices * (options.offlineShare ?? 0.3)));
  const offlineUntil = Math.max(1, Math.floor(ticks / 2));
  progress?.phase('running', ticks * reports.length);
  for (let tick = 0; tick < ticks; tick++) {
    const started = Date.now();
    await eachLimited(reports, concurrency, async ({ machine }, i) => {
      machine.online = !(i < offlineCount && tick < offlineUntil);
      await machine.record(machine.now());
      if (machine.online) {
        await machine.heartbeat();
        await machine.sync();
      }
      progress?.advance();
    });
    const s = summarize(reports);
    progress?.note(
      `accepted ${s.accepted} refused ${s.refused} offline ${reports.filter((r) => !r.machine.online).length}`,
    );
    if (tick === ticks - 1) break;
    // The pause: the machines online wait for commands rather than idle.
    const pause = tickMs - (Date.now() - started);
    if (options.longPoll !== false && pause >= 1_000)
      await Promise.all(reports.filter((r) => r.machine.online).map((r) => r.machine.waitForCommands(pause)));
    await sleep(Math.max(0, tickMs - (Date.now() - started)));
  }
  // Anything still queued (a batch that failed after every retry) gets one last chance.
  await eachLimited(reports, concurrency, async ({ machine }) => {
    machine.online = true;
    if (machine.backlog > 0) await machine.sync();
  });

  progress?.phase('checking', reports.length);
  await eachLimited(reports, concurrency, async (report) => {
    const { accepted } = tally(report.machine.ledger);
    report.expected = { ...accepted, technicians: 1 };
    report.held = await settledHoldings(admin, report);
    // Check-ins are written in coalesced batches about once a second: give the last one time to land.
    for (let waited = 0; ; waited += 250) {
      const device = await admin.getDevice(report.deviceId);
      report.lastSeenAt = device.lastSeenAt;
      report.appVersionName = device.appVersionName;
      if ((device.lastSeenAt && device.appVersionName) || waited >= 5_000) break;
      await sleep(250);
    }
    progress?.advance();
  });
  progress?.done();

  const totals = summarize(reports);
  const surprises = reports.flatMap((r) => r.machine.ledger.surprises);
  let duplicates = 0;
  let missing = 0;
  for (const report of reports) {
    for (const kind of [...recordKinds, 'technicians'] as const) {
      const held = report.held![kind === 'technicians' ? 'technicians' : kindsHeld[kind]];
      const expected = report.expected[kind];
      duplicates += Math.max(0, held - expected);
      missing += Math.max(0, expected - held);
      if (held !== expected)
        surprises.push(`${report.machine.label} ${kind}: ${expected} accepted, the console holds ${held}`);
    }
    if (!report.lastSeenAt || report.appVersionName !== appVersion.name)
      surprises.push(
        `${report.machine.label}: the console shows no last-seen time or app version ${appVersion.name}`,
      );
    if (report.machine.backlog > 0)
      surprises.push(`${report.machine.label}: ${report.machine.backlog} records never sent`);
    if (!report.machine.licence.claims)
      surprises.push(`${report.machine.label}: holds no licence that verified`);
  }
  return {
    devices: reports.length,
    ...totals,
    duplicates,
    missing,
    http: stats,
    surprises,
    machines: reports,
  };
}

function summarize(reports: MachineReport[]) {
  const records = { accepted: 0, refused: 0, refusedMeant: 0, resent: 0, resentSame: 0 };
  const work = { heartbeats: 0, refusedStarts: 0, heldStarts: 0, commandsRun: 0, commandsFailed: 0 };
  for (const { machine } of reports) {
    const t = tally(machine.ledger);
    records.accepted += t.acceptedTotal;
    records.refused += t.refused;
    records.refusedMeant += t.refusedMeant;
    records.resent += machine.ledger.resent;
    records.resentSame += machine.ledger.resentSame;
    work.heartbeats += machine.heartbeats;
    work.refusedStarts += machine.refusedStarts;
    work.heldStarts += machine.heldStarts;
    work.commandsRun += machine.commands.run;
    work.commandsFailed += machine.commands.failed;
  }
  return { ...records, ...work };
}

/** The console's counts; logs may reach their lists a moment after they were acknowledged, so wait briefly for them. */
async function settledHoldings(admin: AdminClient, report: MachineReport): Promise<Holdings> {
  const matches = (h: Holdings) =>
    recordKinds.every((k) => h[kindsHeld[k]] === report.expected[k]) &&
    h.technicians === report.expected.technicians;
  let held = await admin.holdings(report.machine.machineNumber);
  for (let waited = 0; !matches(held) && waited < 5_000; waited += 500) {
    await sleep(500);
    held = await admin.holdings(report.machine.machineNumber);
  }
  return held;
}

/**
 * The one line a run prints on stdout. The refused records are said to be the simulator's own
 * deliberately bad ones (badShare), sent to check that the server refuses them, so a reader does
 * not take them for a fault; any other refusal is counted apart (and listed as a problem).
 */
export function summaryLine(
  s: Pick<FleetSummary, 'devices' | 'accepted' | 'refused' | 'refusedMeant' | 'duplicates'> &
    Partial<Pick<FleetSummary, 'commandsRun' | 'commandsFailed'>>,
) {
  const unexpected = s.refused - s.refusedMeant;
  const why =
    s.refused === 0
      ? ''
      : unexpected === 0
        ? ' (all made bad on purpose by the simulator, to check that the server refuses them)'
        : ` (${s.refusedMeant} made bad on purpose by the simulator, to check that the server refuses them; ${unexpected} unexpected)`;
  // Commands come only when an admin sends some: said only then.
  const commands = s.commandsRun ? `; ${s.commandsRun} commands run, ${s.commandsFailed ?? 0} failed` : '';
  return `simulated ${s.devices} devices: ${s.accepted} records accepted, ${s.refused} refused${why}, ${s.duplicates} duplicates${commands}`;
}

export { appVersion };
