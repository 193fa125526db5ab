import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppCommand, CommandKind } from '@app/contract/commands';
import { openCommandStates } from '@app/contract/commands';
import type { Db } from '#api/db/client.ts';
import { machineCommands } from '#api/db/schema/commands.ts';
import { devices } from '#api/db/schema/devices.ts';
import { createDeliveryMarks, deliverySettleMs } from './delivery-marks.ts';
import {
  loadOpenCommands,
  toAppCommand,
  toOpenCommand,
  waitsForWindow,
  type OpenCommand,
} from './open-commands.ts';
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
 * At most this many open commands are held in memory (about 280 bytes each: some 55 MB at most);
 * past it, only which machines have some, each read on its next call.
 */
const heldAtMost = 200_000;

/**
 * Each machine's inbox of commands (decision 077), as the heartbeat and the long-poll need it:
 * - which machines have something waiting, from memory, so a heartbeat of a machine with nothing
 *   waiting (nearly all of them) reads nothing. Sound only while fed by the database's notices of
 *   every new or finished command; until the feed is live and the open commands are loaded, every
 *   machine counts as maybe having some and is read.
 * - the open commands themselves, so a machine that has some is handed them from memory, its first
 *   hand-over written behind (delivery-marks.ts): no read and no write on the heartbeat's path. A
 *   notice for a machine drops what is held for it (read again on its next call); so does a command
 *   that waits for the window (its window and busy flag are read afresh each time).
 * - the machines waiting in a long-poll, woken by a notice for them.
 * A machine is dropped from memory when a read finds nothing open for it, unless a notice came
 * meanwhile (a per-machine count of notices, compared before and after the read).
 */
export function createCommandInbox({
  db,
  now,
  log,
}: {
  db: Db;
  now: () => Date;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}) {
  /** Machines with open commands: the number of notices seen for each. */
  const marks = new Map<string, number>();
  /** The open commands of machines, when known (only while the feed is live). */
  const openByMachine = new Map<string, OpenCommand[]>();
  const waiters = new Map<string, Set<() => void>>();
  const deliveries = createDeliveryMarks({ db, log });
  let live = false;
  let loaded = false;
  let generation = 0;

  const mark = (deviceId: string) => marks.set(deviceId, (marks.get(deviceId) ?? 0) + 1);
  const wake = (deviceId: string) => {
    for (const resolve of waiters.get(deviceId) ?? []) resolve();
  };

  /** After the feed comes back: every open command, read once (only which machines, past a size). */
  async function loadOpen() {
    const at = generation;
    const notices = new Map(marks);
    const byMachine = await loadOpenCommands(db, now(), heldAtMost);
    const machines = byMachine
      ? byMachine.keys()
      : (
          await db
            .selectDistinct({ deviceId: machineCommands.deviceId })
            .from(machineCommands)
            .where(
              and(
                inArray(machineCommands.state, [...openCommandStates]),
                gt(machineCommands.expiresAt, now()),
              ),
            )
        ).map((r) => r.deviceId);
    if (at !== generation || !live) return;
    for (const deviceId of machines) {
      // A machine noticed during the read may have changed since: it is read on its next call.
      if (byMachine && marks.get(deviceId) === notices.get(deviceId) && !openByMachine.has(deviceId))
        openByMachine.set(deviceId, byMachine.get(deviceId)!);
      mark(deviceId);
    }
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

  /**
   * The page a machine is handed: open and unexpired, minus the held kinds. Queued ones become
   * delivered here, their mark written behind; one delivered already is handed again without a
   * write (the app runs a command once by its id).
   */
  function handOver(list: OpenCommand[], heldBack: CommandKind[], at: Date): AppCommand[] {
    const out: AppCommand[] = [];
    for (const c of list) {
      if (out.length === perAnswer) break;
      if (c.expiresAt <= at.getTime() || heldBack.includes(c.kind)) continue;
      if (!c.delivered) {
        c.delivered = true;
        deliveries.note(c.id, at);
      }
      out.push(toAppCommand(c));
    }
    return out;
  }

  /** Hands the machine its open commands: from memory when held, else from one read. */
  async function deliver(deviceId: string, busy?: boolean): Promise<AppCommand[]> {
    const at = now();
    const known = openByMachine.get(deviceId);
    if (known && !known.some((c) => waitsForWindow(c.kind))) {
      if (known.some((c) => c.expiresAt > at.getTime())) return handOver(known, [], at);
      openByMachine.delete(deviceId);
      if (loaded) marks.delete(deviceId);
      return [];
    }
    const before = marks.get(deviceId);
    const gen = generation;
    const rows = await openOf.execute({ deviceId, at });
    const first = rows[0];
    // Busy: the heartbeat's own flag, else the last one written.
    const heldBack = first ? heldKinds(first.window, busy ?? first.busySince !== null, at) : [];
    const list = rows.map((r) => toOpenCommand(r, (r.params ?? {}) as Record<string, unknown>));
    const unchanged = marks.get(deviceId) === before && gen === generation;
    // Held for the next call, when complete and nothing was announced for it during the read.
    const complete = rows.length > 0 && rows.length < perAnswer * 2;
    if (live && unchanged && complete && !list.some((c) => waitsForWindow(c.kind)))
      openByMachine.set(deviceId, list);
    // A machine stays in memory while it has held commands: they go once its window opens.
    if (rows.length === 0 && loaded && unchanged) marks.delete(deviceId);
    return handOver(list, heldBack, at);
  }

  /** Forgets which machines have commands and reads them again (when live): notices may be lost. */
  function startOver() {
    generation++;
    marks.clear();
    openByMachine.clear();
    loaded = false;
    if (live) void loadOpen().catch(() => undefined);
    // Everyone waiting looks again.
    for (const id of waiters.keys()) wake(id);
  }

  /** What is held for a machine is stale: a command was queued, finished or cancelled. */
  function noticed(deviceId: string) {
    openByMachine.delete(deviceId);
    if (live && deviceId) mark(deviceId);
    wake(deviceId);
  }

  return {
    feed: {
      onPayload(deviceId: string) {
        // A batch to many machines is one notice (migration 0043): read them all again.
        if (deviceId === everyMachine) return startOver();
        noticed(deviceId);
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

    /**
     * A machine's command finished or was cancelled here: forgotten at once on this instance, and
     * announced to the others (the inserts announce themselves: migration 0043).
     */
    async changed(deviceId: string) {
      noticed(deviceId);
      await db.execute(sql`select pg_notify(${commandQueuedChannel}, ${deviceId})`);
    },

    /** How long a cancel waits for hand-overs made before it to be written (delivery-marks.ts). */
    settleMs: deliverySettleMs,
    /** Writes the hand-overs noted so far (tests). */
    flushDeliveries: () => deliveries.flush(),
    close: () => deliveries.close(),

    /** Machines in a long-poll now (tests, the memory bench). */
    get waiting() {
      let n = 0;
      for (const set of waiters.values()) n += set.size;
      return n;
    },
  };
}
export type CommandInbox = ReturnType<typeof createCommandInbox>;
