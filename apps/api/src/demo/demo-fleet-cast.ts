import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, asc, eq, like } from 'drizzle-orm';
import type { MachineKeeps } from '@app/fleet-simulator/machine';
import type { Db } from '../db/client.ts';
import { devices, doctors, patients } from '../db/schema/devices.ts';

/*
 * Who plays what in the demo fleet (issue 35 item 1), and what each machine keeps between starts.
 * The cast is the demo data's running machines, chosen once and kept in DATA_DIR/demo-fleet.json
 * with each machine's credential and the doctor who signs in on it (a machine's secrets, like the
 * app keeps them), and what its app keeps on disk (a safety hold, the commands it ran), so a restart
 * neither enrols the machines again, nor lifts a hold, nor touches a machine an admin added later.
 */

/**
 * steady: checks in, treats patients, syncs, checks for app updates. flaky: loses its network for a while every few hours
 * (Offline on the map, then a backlog to sync). silent: enrolled but switched off at the clinic
 * (the Offline alarm once quiet for ALARM_OFFLINE_HOURS). crashing: the app logs errors in bursts
 * (the error-burst alarm). revoked: an admin revoked it, and it still calls (revoked-calls).
 */
export const demoRoles = ['steady', 'flaky', 'silent', 'crashing', 'revoked'] as const;
export type DemoRole = (typeof demoRoles)[number];

export type CastMember = {
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  role: DemoRole;
  /** The release it runs: the demo data's, except one kept on an old one (the app-version alarm). */
  app: { code: number; name: string };
  /** False for the machine kept on the old release: its clinic turned the app's updates off. */
  autoUpdate?: boolean;
  credential: string | null;
  doctor: { userName: string; password: string } | null;
  /** What its app keeps on disk across restarts: a safety hold, and the commands it ran (by id). */
  kept?: MachineKeeps;
};

type State = { version: 1; cast: CastMember[] };

/** The demo's old release (1.1.0, below the 1.2.0 security fix every device must take). */
export const oldRelease = { code: 20, name: '1.1.0' } as const;

export const castFile = (dataDir: string) => path.join(dataDir, 'demo-fleet.json');

export function readCast(file: string): CastMember[] | null {
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as State;
    return state.version === 1 && Array.isArray(state.cast) ? state.cast : null;
  } catch {
    return null;
  }
}

/** Written whole and renamed into place, readable by this user only (it holds credentials). */
export function writeCast(file: string, cast: CastMember[]) {
  mkdirSync(path.dirname(file), { recursive: true });
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, JSON.stringify({ version: 1, cast } satisfies State, null, 1), { mode: 0o600 });
  renameSync(next, file);
}

/**
 * The demo data's running machines (machine numbers MN-1001…), by machine number. The one quiet the
 * longest plays silent; then two flaky, one crashing, one revoked, one on the old release, the
 * rest steady. The newest machine (the first row a newcomer opens) always stays steady.
 */
export async function chooseCast(db: Db): Promise<CastMember[]> {
  const rows = await db
    .select({
      deviceId: devices.id,
      machineNumber: devices.machineNumber,
      serialNumber: devices.serialNumber,
      lastSeenAt: devices.lastSeenAt,
      code: devices.appVersionCode,
      name: devices.appVersionName,
      createdAt: devices.createdAt,
    })
    .from(devices)
    .where(and(eq(devices.status, 2), like(devices.machineNumber, 'MN-____')))
    .orderBy(asc(devices.machineNumber));
  if (rows.length === 0) return [];
  const newest = rows.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
  const quietest = rows
    .filter((r) => r !== newest)
    .reduce<(typeof rows)[number] | null>(
      (a, b) => (a === null || (b.lastSeenAt?.getTime() ?? 0) < (a.lastSeenAt?.getTime() ?? 0) ? b : a),
      null,
    );
  const others = rows.filter((r) => r !== newest && r !== quietest);
  const plan: DemoRole[] = ['flaky', 'crashing', 'flaky', 'revoked'];
  return rows.map((r) => {
    const at = others.indexOf(r);
    const role: DemoRole = r === quietest ? 'silent' : (plan[at] ?? 'steady');
    const app =
      at === plan.length
        ? { ...oldRelease }
        : { code: r.code ?? oldRelease.code, name: r.name ?? oldRelease.name };
    return {
      deviceId: r.deviceId,
      machineNumber: r.machineNumber,
      serialNumber: r.serialNumber,
      role,
      app,
      autoUpdate: at !== plan.length,
      credential: null,
      doctor: null,
    };
  });
}

/** The first active doctor of a machine, and the app ids of their patients (treated again later). */
export async function doctorOf(db: Db, deviceId: string) {
  const [doctor] = await db
    .select({ id: doctors.id, userName: doctors.userName })
    .from(doctors)
    .where(and(eq(doctors.deviceId, deviceId), eq(doctors.status, 2)))
    .orderBy(asc(doctors.createTime))
    .limit(1);
  if (!doctor?.userName) return null;
  const theirs = await db
    .select({ clientId: patients.clientId })
    .from(patients)
    .where(eq(patients.doctorId, doctor.id));
  return {
    id: doctor.id,
    userName: doctor.userName,
    patients: theirs.flatMap((p) => (p.clientId ? [p.clientId] : [])),
  };
}
