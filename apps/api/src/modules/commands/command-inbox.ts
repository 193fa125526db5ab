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

  /*
   * A machine's open commands, oldest first, with its window and busy flag (what holds some back):
   * one prepared read. Up to twice a page, so held kinds do not crowd out what may go.
   */
  const openOf = db
    .select({
      id: machineCommands.id,
      kind: machineCommands.kind,
      params: machineCommands.params,
      state: machineCommands.state,
      createdAt: machineCommands.createdAt,
      expiresAt: machineCommands.expiresAt,
      window: devices.maintenanceWindow,
      busySince: devices.busySince,
    })
    .from(machineCommands)
    .innerJoin(devices, eq(devices.id, machineCommands.deviceId))
    .where(
      and(
        eq(machineCommands.deviceId, sql.placeholder('deviceId')),
        inArray(machineCommands.state, [...openCommandStates]),
        gt(machineCommands.expiresAt, sql.placeholder('at')),
      ),
    )
    .orderBy(machineCommands.createdAt, machineCommands.id)
    .limit(perAnswer * 2)
    .prepare('open_commands_of_device');
  /** The first hand-over of queued ones; one already delivered is handed again without a write. */
  const markDelivered = async (ids: string[], at: Date) =>
    new Set(
      rowsOf<{ id: string }>(
        await db.execute(sql`
          update machine_commands set state = 'delivered', delivered_at = ${at}, deliveries = 1
          where id = any(${`{${ids.join(',')}}`}::uuid[]) and state = 'queued' and expires_at > ${at}
          returning id`),
      ).map((r) => r.id),
    );

  /**
   * Hands the machine its open commands, oldest first, marking queued ones delivered (a command
   * already delivered is handed again: the app runs a command once by its id; that costs a read
   * only). Expired ones never go out; those that wait for the window stay queued while it is closed
   * or a treatment runs (busy: the heartbeat's own flag, else the last one written).
   */
  async function deliver(deviceId: string, busy?: boolean): Promise<AppCommand[]> {
    const before = marks.get(deviceId);
    const at = now();
    const rows = await openOf.execute({ deviceId, at });
    const first = rows[0];
    const held = first ? heldKinds(first.window, busy ?? first.busySince !== null, at) : [];
    let list = rows.filter((r) => !held.includes(r.kind as CommandKind)).slice(0, perAnswer);
    const queued = list.filter((r) => r.state === 'queued').map((r) => r.id);
    if (queued.length) {
      // Only what this update moved: one cancelled (or expired) since the read stays behind.
      const moved = await markDelivered(queued, at);
      list = list.filter((r) => r.state === 'delivered' || moved.has(r.id));
    }
    // A machine stays in memory while it has held commands: they go once its window opens.
    if (rows.length === 0 && loaded && marks.get(deviceId) === before) marks.delete(deviceId);
    return list.map((r) => ({
      _id: r.id,
      kind: r.kind as CommandKind,
      params: (r.params ?? {}) as Record<string, unknown>,
      expiresAt: r.expiresAt.toISOString(),
    }));
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
