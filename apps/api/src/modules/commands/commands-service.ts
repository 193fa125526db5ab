import type { Readable } from 'node:stream';
import { and, count, desc, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import {
  commandCatalogue,
  commandMessages,
  commandParamsOf,
  maxDiagnosticsBytes,
  openCommandStates,
  type Command,
  type CommandKind,
  type CommandList,
  type CommandResultBody,
  type CommandState,
  type SendCommandBody,
} from '@app/contract/commands';
import { deviceMessages } from '@app/contract/devices';
import type { MaintenanceWindow } from '@app/contract/maintenance-windows';
import type { Db } from '#api/db/client.ts';
import { machineCommands } from '#api/db/schema/commands.ts';
import { devices } from '#api/db/schema/devices.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { AuthContext } from '#api/lib/request-context.ts';
import type { Storage, StoredObject } from '#api/lib/storage/storage.ts';
import { storageKey } from '#api/lib/storage/storage-key.ts';
import type { CommandInbox } from './command-inbox.ts';
import { waitingReason } from './window-hold.ts';

type Row = typeof machineCommands.$inferSelect & {
  machineNumber: string;
  maintenanceWindow: MaintenanceWindow | null;
  busySince: Date | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toCommand(row: Row, at: Date): Command {
  return {
    _id: row.id,
    deviceId: row.deviceId,
    machineNumber: row.machineNumber,
    kind: row.kind as CommandKind,
    params: (row.params ?? {}) as Record<string, unknown>,
    state: row.state as CommandState,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    expiresAt: row.expiresAt.toISOString(),
    deliveredAt: iso(row.deliveredAt),
    finishedAt: iso(row.finishedAt),
    message: row.message,
    diagnostics:
      row.diagnosticsKey && row.diagnosticsAt
        ? { size: row.diagnosticsSize ?? 0, uploadedAt: row.diagnosticsAt.toISOString() }
        : null,
    waiting: waitingReason(row.kind as CommandKind, row.state, row.maintenanceWindow, row.busySince, at),
  };
}

const open = inArray(machineCommands.state, [...openCommandStates]);

/**
 * Commands to machines (issue 37, decision 077): queued by an admin, handed over by the inbox
 * (command-inbox.ts), reported by the machine. Every state change is one conditional UPDATE, so a
 * retried call, a second API instance or a late report changes a copy at most once.
 */
export function createCommandsService({
  db,
  storage,
  now,
  inbox,
}: {
  db: Db;
  storage: Storage;
  now: () => Date;
  /** Told of a copy that finished or was cancelled, so no instance hands it over from memory. */
  inbox: Pick<CommandInbox, 'changed' | 'settleMs'>;
}) {
  const withMachine = () =>
    db
      .select({
        ...getTableColumns(machineCommands),
        machineNumber: devices.machineNumber,
        maintenanceWindow: devices.maintenanceWindow,
        busySince: devices.busySince,
      })
      .from(machineCommands)
      .innerJoin(devices, eq(devices.id, machineCommands.deviceId));

  async function rowOf(id: string): Promise<Row> {
    const [row] = await withMachine().where(eq(machineCommands.id, id)).limit(1);
    if (!row) throw new NotFoundError(commandMessages.notFound);
    return row;
  }
  const get = async (id: string): Promise<Command> => toCommand(await rowOf(id), now());

  /** The machine's own command, or a 404 (another machine's command is not found either). */
  async function ownRow(deviceId: string, id: string) {
    const [row] = await db
      .select()
      .from(machineCommands)
      .where(and(eq(machineCommands.id, id), eq(machineCommands.deviceId, deviceId)))
      .limit(1);
    if (!row) throw new NotFoundError(commandMessages.notFound);
    return row;
  }

  return {
    get,

    /** Queues a command for one machine; the answer is the command. */
    async send(deviceId: string, body: SendCommandBody, auth: AuthContext): Promise<Command> {
      const [device] = await db
        .select({ id: devices.id })
        .from(devices)
        .where(eq(devices.id, deviceId))
        .limit(1);
      if (!device) throw new NotFoundError(deviceMessages.notFound);
      const at = now();
      const ttl = body.ttlMinutes ?? commandCatalogue[body.kind].ttlMinutes;
      const [row] = await db
        .insert(machineCommands)
        .values({
          deviceId,
          kind: body.kind,
          params: commandParamsOf(body),
          createdAt: at,
          createdById: auth.userId,
          createdBy: auth.email,
          expiresAt: new Date(at.getTime() + ttl * 60_000),
        })
        .returning({ id: machineCommands.id });
      return get(row!.id);
    },

    /** The machine's commands, newest first. */
    async list(deviceId: string, page: number, limit: number): Promise<CommandList> {
      const [[counted], rows] = await Promise.all([
        db.select({ total: count() }).from(machineCommands).where(eq(machineCommands.deviceId, deviceId)),
        withMachine()
          .where(eq(machineCommands.deviceId, deviceId))
          .orderBy(desc(machineCommands.createdAt), desc(machineCommands.id))
          .limit(limit)
          .offset((page - 1) * limit),
      ]);
      const total = counted?.total ?? 0;
      return {
        commands: rows.map((row) => toCommand(row, now())),
        total,
        totalPages: Math.ceil(total / limit),
        page,
        limit,
      };
    },

    /** Withdraws a command (as read by `get`) that has not reached its machine yet. */
    async cancel(command: Command, auth: AuthContext): Promise<Command> {
      const [moved] = await db
        .update(machineCommands)
        .set({ state: 'cancelled', finishedAt: now(), message: `Cancelled by ${auth.email}` })
        .where(and(eq(machineCommands.id, command._id), eq(machineCommands.state, 'queued')))
        .returning({ id: machineCommands.id, deviceId: machineCommands.deviceId });
      if (moved) {
        // No instance hands it over from now on; one handed over before the cancel is written
        // within the settle time and wins (delivery-marks.ts): the machine has it.
        await inbox.changed(moved.deviceId);
        await new Promise((resolve) => setTimeout(resolve, inbox.settleMs));
      }
      // Cancelled meanwhile (by another admin, or a retried click) is what was asked.
      const current = await get(command._id);
      if (current.state !== 'cancelled') throw new ConflictError(commandMessages.notCancellable);
      return current;
    },

    /**
     * The machine's report. A second report of the same command (a retry after a lost answer) is
     * answered with the state the first one set, and changes nothing.
     */
    async result(deviceId: string, id: string, body: CommandResultBody): Promise<CommandState> {
      const [moved] = await db
        .update(machineCommands)
        .set({
          state: body.ok ? 'succeeded' : 'failed',
          finishedAt: now(),
          message: body.message || null,
        })
        .where(and(eq(machineCommands.id, id), eq(machineCommands.deviceId, deviceId), open))
        .returning({ state: machineCommands.state });
      if (moved) {
        await inbox.changed(deviceId);
        return moved.state as CommandState;
      }
      const row = await ownRow(deviceId, id);
      if (row.state === 'expired' || row.state === 'cancelled')
        throw new ConflictError(commandMessages.finished(row.state));
      return row.state as CommandState;
    },

    /** Stores the file an upload-diagnostics command asked for (the machine's own, still open). */
    async storeDiagnostics(deviceId: string, id: string, file: Readable, contentType: string) {
      const row = await ownRow(deviceId, id);
      if (row.kind !== 'upload-diagnostics') throw new BadRequestError(commandMessages.notDiagnostics);
      if (row.state === 'expired' || row.state === 'cancelled')
        throw new ConflictError(commandMessages.finished(row.state));
      const key = storageKey('diagnostics');
      const put = await storage.put(key, file, { contentType, maxBytes: maxDiagnosticsBytes });
      if (put.size === 0) {
        await storage.delete(key);
        throw new BadRequestError(commandMessages.diagnosticsEmpty);
      }
      // A second upload replaces the first; the first file goes once the row names the new one.
      await db
        .update(machineCommands)
        .set({
          diagnosticsKey: key,
          diagnosticsSize: put.size,
          diagnosticsType: contentType,
          diagnosticsAt: now(),
        })
        .where(eq(machineCommands.id, id));
      if (row.diagnosticsKey) await storage.delete(row.diagnosticsKey);
      return { size: put.size };
    },

    /** The diagnostics file of a command, ready to stream. */
    async openDiagnostics(
      id: string,
    ): Promise<{ command: Command; object: StoredObject; contentType: string }> {
      const row = await rowOf(id);
      if (!row.diagnosticsKey) throw new NotFoundError(commandMessages.noDiagnostics);
      const object = await storage.get(row.diagnosticsKey);
      if (!object) throw new AppError(410, 'The diagnostics file is no longer stored');
      return {
        command: toCommand(row, now()),
        object,
        contentType: row.diagnosticsType ?? 'application/octet-stream',
      };
    },
  };
}
export type CommandsService = ReturnType<typeof createCommandsService>;

/** Why a copy expired, as its row says. */
export const expiredMessages = {
  queued: 'The machine did not call before the command expired',
  delivered: 'The machine did not report a result before the command expired',
};

/** The expiry sweep: open copies past their TTL become expired (never delivered after it either). */
export async function expireCommands(db: Db, at: Date): Promise<number> {
  const rows = await db
    .update(machineCommands)
    .set({
      state: 'expired',
      finishedAt: at,
      message: sql`case when ${machineCommands.state} = 'queued'
        then ${expiredMessages.queued}::text else ${expiredMessages.delivered}::text end`,
    })
    .where(and(open, lte(machineCommands.expiresAt, at)))
    .returning({ id: machineCommands.id });
  return rows.length;
}
