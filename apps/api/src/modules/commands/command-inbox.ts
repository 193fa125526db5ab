import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AppCommand, CommandKind } from '@app/contract/commands';
import { openCommandStates } from '@app/contract/commands';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { machineCommands } from '#api/db/schema/commands.ts';
import { devices } from '#api/db/schema/devices.ts';
import { heldKinds } from './window-hold.ts';

/**
 * The database channel that announces a machine's id when a command is queued for it, or '*' after a
 * batch to many machines (migrations 0042, 0043).
 */
export const commandQueuedChannel = 'command_queued';

type Row = {
  id: string;
  kind: CommandKind;
  params: unknown;
  created_at: Date | string;
  expires_at: Date | string;
};

/** The notice of a batch to more machines than are worth naming one by one. */
const everyMachine = '*';

/** At most this many commands in one answer; the rest come with the next call. */
const perAnswer = 20;

/**
 * Each machine's inbox of commands (decision 077), as the heartbeat and the long-poll need it:
 * - which machines have something waiting, from memory, so a heartbeat of a machine with nothing
 *   waiting (nearly all of them) reads nothing. Sound only while fed by the database's notices of
 *   every new command; until the feed is live and the machines with open commands are loaded, every
 *   machine counts as maybe having some and is read.
 * - the machines waiting in a long-poll, woken by a notice for them.
 * A machine is dropped from memory when a read finds nothing open for it, unless a notice came
 * meanwhile (a per-machine count of notices, compared before and after the read).
 */
export function createCommandInbox({ db, now }: { db: Db; now: () => Date }) {
  /** Machines with open commands: the number of notices seen for each. */
  const marks = new Map<string, number>();
  const waiters = new Map<string, Set<() => void>>();
  let live = false;
  let loaded = false;
  let generation = 0;

  const mark = (deviceId: string) => marks.set(deviceId, (marks.get(deviceId) ?? 0) + 1);
  const wake = (deviceId: string) => {
    for (const resolve of waiters.get(deviceId) ?? []) resolve();
  };

  /** After the feed comes back: every machine with an open command, read once. */
  async function loadOpen() {
    const at = generation;
    const rows = await db
      .selectDistinct({ deviceId: machineCommands.deviceId })
      .from(machineCommands)
      .where(
        and(inArray(machineCommands.state, [...openCommandStates]), gt(machineCommands.expiresAt, now())),
      );
    if (at !== generation || !live) return;
    for (const { deviceId } of rows) mark(deviceId);
    loaded = true;
  }

  /**
   * The kinds to hold back from the machine now: those that wait for its maintenance window while
   * it is closed or a treatment runs (busy: the heartbeat's own flag, else the last one written).
   */
  async function holdsFor(deviceId: string, at: Date, busy: boolean | undefined) {
    const [device] = await db
      .select({ window: devices.maintenanceWindow, busySince: devices.busySince })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .limit(1);
    return heldKinds(device?.window, busy ?? Boolean(device?.busySince), at);
  }

  /**
   * Hands the machine its open commands, oldest first, marking each delivered (a command already
   * delivered is handed again: the app runs a command once by its id). Expired ones never go out;
   * ones that wait for the window stay queued while it is closed or a treatment runs.
   */
  async function deliver(deviceId: string, busy?: boolean): Promise<AppCommand[]> {
    const before = marks.get(deviceId);
    const at = now();
    // Kinds are the contract's own words (letters and hyphens): an array literal, one parameter.
    const held = await holdsFor(deviceId, at, busy);
    const result = await db.execute(sql`
      update machine_commands set
        state = 'delivered',
        delivered_at = coalesce(delivered_at, ${at}),
        deliveries = deliveries + 1
      where id in (
        select id from machine_commands
        where device_id = ${deviceId} and state in ('queued', 'delivered') and expires_at > ${at}
          and kind <> all(${`{${held.join(',')}}`}::text[])
        order by created_at, id
        limit ${perAnswer}
      )
      returning id, kind, params, created_at, expires_at`);
    const list = rowsOf<Row>(result);
    // A machine stays in memory while it has held commands: they go once its window opens.
    const holding = held.length > 0 && list.length === 0 && (await hasOpen(deviceId, at, held));
    if (list.length === 0 && !holding && loaded && marks.get(deviceId) === before) marks.delete(deviceId);
    return list
      .sort(
        (a, b) =>
          new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || (a.id < b.id ? -1 : 1),
      )
      .map((r) => ({
        _id: r.id,
        kind: r.kind,
        params: (r.params ?? {}) as Record<string, unknown>,
        expiresAt: new Date(r.expires_at).toISOString(),
      }));
  }

  /** Whether the machine has open commands of these kinds. */
  async function hasOpen(deviceId: string, at: Date, kinds: CommandKind[]) {
    const [row] = await db
      .select({ id: machineCommands.id })
      .from(machineCommands)
      .where(
        and(
          eq(machineCommands.deviceId, deviceId),
          inArray(machineCommands.state, [...openCommandStates]),
          gt(machineCommands.expiresAt, at),
          inArray(machineCommands.kind, kinds),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** Forgets which machines have commands and reads them again (when live): notices may be lost. */
  function startOver() {
    generation++;
    marks.clear();
    loaded = false;
    if (live) void loadOpen().catch(() => undefined);
    // Everyone waiting looks again.
    for (const id of waiters.keys()) wake(id);
  }

  return {
    feed: {
      onPayload(deviceId: string) {
        // A batch to many machines is one notice (migration 0043): read them all again.
        if (deviceId === everyMachine) return startOver();
        if (live && deviceId) mark(deviceId);
        wake(deviceId);
      },
      onLive(next: boolean) {
        live = next;
        startOver();
      },
    },

    /** The heartbeat's share: the machine's open commands, read only when it may have some. */
    forHeartbeat: (deviceId: string, busy: boolean): Promise<AppCommand[]> | null =>
      !loaded || marks.has(deviceId) ? deliver(deviceId, busy) : null,

    /**
     * The long-poll: the machine's open commands now, or once one is queued for it, or nothing
     * after `waitSeconds`. `aborted` ends the wait early (the machine hung up).
     */
    async waitFor(deviceId: string, waitSeconds: number, aborted: AbortSignal): Promise<AppCommand[]> {
      const first = await deliver(deviceId);
      if (first.length > 0 || waitSeconds === 0 || aborted.aborted) return first;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          aborted.removeEventListener('abort', done);
          const set = waiters.get(deviceId);
          set?.delete(done);
          if (set?.size === 0) waiters.delete(deviceId);
          resolve();
        };
        const timer = setTimeout(done, waitSeconds * 1000);
        aborted.addEventListener('abort', done, { once: true });
        let set = waiters.get(deviceId);
        if (!set) waiters.set(deviceId, (set = new Set()));
        set.add(done);
      });
      return aborted.aborted ? [] : deliver(deviceId);
    },

    /** Machines in a long-poll now (tests, the memory bench). */
    get waiting() {
      let n = 0;
      for (const set of waiters.values()) n += set.size;
      return n;
    },
  };
}
export type CommandInbox = ReturnType<typeof createCommandInbox>;
