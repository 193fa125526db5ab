import { eq } from 'drizzle-orm';
import { createRng } from '@app/fake-data/random';
import { tinyPng } from '@app/fleet-simulator/fake-data';
import { ApiError } from '@app/fleet-simulator/http';
import { takeSurprises } from '@app/fleet-simulator/ledger';
import { SimMachine } from '@app/fleet-simulator/machine';
import { eachLimited } from '@app/fleet-simulator/pool';
import type { Db } from '../db/client.ts';
import { doctors } from '../db/schema/devices.ts';
import { startJobs } from '../lib/jobs.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { EnrolmentService } from '../modules/device-api/enrolment-service.ts';
import { chooseCast, doctorOf, readCast, writeCast, type CastMember } from './demo-fleet-cast.ts';

/*
 * The built-in demo fleet (issue 35 item 1): the demo data's machines, kept alive by the fleet
 * simulator's own machine code speaking the device API over HTTP to this very server, so the
 * dashboard, the map and the alarms show real states an hour after `npm start`, not a fleet that
 * went quiet. Gentle: about one call a second for 60 machines, one periodic job, four calls at a time.
 */

export type DemoFleetPace = {
  /** How often a machine checks in (the server's DEVICE_HEARTBEAT_SECONDS). */
  heartbeatMs: number;
  /** The mean time between two treatments on one machine. */
  recordMs: number;
  /** A flaky machine is off its network for the first third of each such period. */
  flakyPeriodMs: number;
  /** How often the crashing machine's app logs a burst of errors. */
  burstEveryMs: number;
  /** How many errors a burst logs (above ALARM_ERROR_BURST, so the alarm opens). */
  burstSize: number;
  /** How often a machine's app checks for an app update (the first checks spread over half an hour). */
  updateCheckMs: number;
  /** How often the job looks for work that is due. */
  tickMs: number;
};

export const realisticPace = (heartbeatSeconds: number, errorBurst: number): DemoFleetPace => ({
  heartbeatMs: heartbeatSeconds * 1000,
  recordMs: 30 * 60_000,
  flakyPeriodMs: 2 * 60 * 60_000,
  burstEveryMs: 45 * 60_000,
  burstSize: errorBurst + 10,
  updateCheckMs: 6 * 60 * 60_000,
  tickMs: 5_000,
});

type Deps = {
  db: Db;
  /** Where this server answers (its own listening address). */
  baseUrl: string;
  /** The licences' issuer: the server's PUBLIC_URL. */
  issuer: string;
  enrolment: Pick<EnrolmentService, 'issueCode' | 'revoke'>;
  /** DATA_DIR/demo-fleet.json (demo-fleet-cast.ts). */
  castFile: string;
  pace: DemoFleetPace;
  log: { warn: (msg: string) => void; error: (fields: object, msg: string) => void };
  now?: () => number;
};

type Player = {
  member: CastMember;
  machine: SimMachine;
  nextHeartbeat: number;
  nextRecord: number;
  nextBurst: number;
  nextUpdateCheck: number;
  /** Where a flaky machine is in its period. */
  phase: number;
  /** Whether its doctor was signed in (or found missing) since the machine last enrolled. */
  signInTried: boolean;
};

export type DemoFleet = { machines: number; stop: () => Promise<void> };

export async function startDemoFleet(deps: Deps): Promise<DemoFleet> {
  const { db, pace, log } = deps;
  const now = deps.now ?? Date.now;
  const random = createRng(35);
  const pictures = Array.from({ length: 4 }, () => tinyPng(random).toString('base64'));
  const cast = readCast(deps.castFile) ?? (await chooseCast(db));
  const save = () => writeCast(deps.castFile, cast);
  save();

  const players: Player[] = [];
  for (const [i, member] of cast.entries()) {
    const mine = createRng(1_000 + i);
    const machine = new SimMachine(member.machineNumber, {
      http: { baseUrl: deps.baseUrl, retry: { attempts: 3, baseDelayMs: 500, maxDelayMs: 5_000 } },
      random: mine,
      resendShare: 0,
      badShare: 0,
      newPatientShare: 0.2,
      images: () => Array.from({ length: mine.int(1, 2) }, () => mine.pick(pictures)),
      issuer: deps.issuer,
      app: member.app,
      // A re-enrol command: a new code issued here, as the first enrolment's (enrol below).
      enrolmentCode: async (deviceId) => (await deps.enrolment.issueCode(deviceId, null)).code,
    });
    if (member.kept) machine.restore(member.kept);
    // What the app keeps from its enrolment, as it would across a restart.
    Object.assign(machine.client, {
      credential: member.credential,
      deviceId: member.deviceId,
      machineNumber: member.machineNumber,
      serialNumber: member.serialNumber,
    });
    const start = now();
    players.push({
      member,
      machine,
      // The first check-ins spread over half a minute, the first treatments over five.
      nextHeartbeat: start + mine.int(0, Math.min(30_000, pace.heartbeatMs)),
      nextRecord: start + mine.int(0, Math.min(5 * 60_000, pace.recordMs)),
      nextBurst: start + mine.int(0, Math.min(60_000, pace.burstEveryMs)),
      nextUpdateCheck: start + mine.int(0, Math.min(30 * 60_000, pace.updateCheckMs)),
      phase: mine.int(0, pace.flakyPeriodMs),
      signInTried: false,
    });
  }

  /** Enrols with a code issued here (the console's way, without a person) and keeps the credential. */
  async function enrol(player: Player) {
    const { code } = await deps.enrolment.issueCode(player.member.deviceId, null);
    await player.machine.client.enrol(code);
    player.member.credential = player.machine.client.credential;
    if (player.member.role === 'revoked') await deps.enrolment.revoke(player.member.deviceId);
    save();
  }

  /** The doctor who works on the machine; their password is the demo fleet's (set once, kept). */
  async function signIn(player: Player) {
    const doctor = await doctorOf(db, player.member.deviceId);
    if (!doctor) return;
    let held = player.member.doctor;
    if (held?.userName !== doctor.userName) {
      held = { userName: doctor.userName, password: `Demo-${crypto.randomUUID()}` };
      await db
        .update(doctors)
        .set({ passwordHash: await hashPassword(held.password) })
        .where(eq(doctors.id, doctor.id));
      player.member.doctor = held;
      save();
    }
    try {
      await player.machine.signIn(held.userName, held.password, doctor.patients);
    } catch (err) {
      // A password changed since: the next start sets the demo's again.
      player.member.doctor = null;
      save();
      throw err;
    }
  }

  const online = (p: Player, at: number) =>
    p.member.role !== 'flaky' || (at + p.phase) % pace.flakyPeriodMs >= pace.flakyPeriodMs / 3;

  async function play(p: Player, at: number) {
    const { machine, member } = p;
    if (member.credential === null) await enrol(p);
    if (member.role === 'silent') return;
    if (member.role === 'revoked') {
      // A revoked machine's calls are refused; each refusal is what the alarm counts.
      if (at >= p.nextHeartbeat) {
        p.nextHeartbeat = at + pace.heartbeatMs;
        await machine.heartbeat().catch(() => undefined);
      }
      return;
    }
    // Once per enrolment: a machine without an active doctor writes the app's logs only.
    if (!p.signInTried) {
      p.signInTried = true;
      await signIn(p);
    }
    const up = online(p, at);
    machine.online = up;
    if (at >= p.nextRecord) {
      p.nextRecord = at + pace.recordMs / 2 + random.int(0, pace.recordMs);
      await machine.record(new Date(at));
    }
    if (member.role === 'crashing' && at >= p.nextBurst) {
      p.nextBurst = at + pace.burstEveryMs;
      machine.recordErrorBurst(pace.burstSize, new Date(at));
    }
    if (!up) return;
    if (at >= p.nextHeartbeat) {
      p.nextHeartbeat = at + pace.heartbeatMs * (0.9 + random.int(0, 20) / 100);
      await machine.heartbeat();
    }
    if (machine.backlog > 0) await machine.sync();
    // The demo data stages its newest release (app-updates-seed.ts): the machines in its cohort take
    // it, the others the Force release below it, as a real fleet follows a rollout.
    if (member.autoUpdate !== false && at >= p.nextUpdateCheck) {
      p.nextUpdateCheck = at + pace.updateCheckMs * (0.9 + random.int(0, 20) / 100);
      await machine.checkForUpdate();
    }
  }

  async function turn(p: Player) {
    try {
      await play(p, now());
    } catch (err) {
      // A credential an admin revoked or replaced: enrol again at the next turn.
      if (err instanceof ApiError && err.status === 401 && !err.path.includes('/login')) {
        p.machine.client.forgetEnrolment();
        p.machine.doctors.length = 0;
        p.signInTried = false;
      }
      log.warn(`demo fleet ${p.member.machineNumber}: ${(err as Error).message}`);
    } finally {
      for (const surprise of takeSurprises(p.machine.ledger)) log.warn(`demo fleet: ${surprise}`);
      keep(p);
    }
  }

  /**
   * Saves what the machine's app keeps on disk when it changed: a credential from a re-enrol, a
   * hold, commands run, a release installed.
   */
  function keep({ member, machine }: Player) {
    const kept = machine.keeps();
    if (
      machine.client.credential === member.credential &&
      JSON.stringify(kept) === JSON.stringify(member.kept) &&
      machine.app.code === member.app.code
    )
      return;
    member.credential = machine.client.credential;
    member.kept = kept;
    member.app = { ...machine.app };
    save();
  }

  /** One run: every machine with something due, four at a time, so the server never feels the demo. */
  async function turnDue() {
    const at = now();
    const due = players.filter(
      (p) =>
        p.member.credential === null ||
        (p.member.role !== 'silent' && (at >= p.nextHeartbeat || at >= p.nextRecord || at >= p.nextBurst)),
    );
    await eachLimited(due, 4, turn);
  }
  // A periodic job like the modules' (lib/jobs.ts): never two runs at once, a failure logged. It
  // is this instance's own, on a timer here and never on the job queue: the demo machines call the
  // server that runs them (decisions 071, 075).
  const stopJob = startJobs(
    [{ name: 'demo fleet', everySeconds: pace.tickMs / 1000, perInstance: true, run: turnDue }],
    log,
  );

  return {
    machines: players.length,
    stop: stopJob,
  };
}
