import { and, count, eq, ne, sql } from 'drizzle-orm';
import {
  commandBatchMessages,
  type CommandBatch,
  type CommandBatchState,
  type SendCommandBatchBody,
} from '@app/contract/command-batches';
import {
  commandCatalogue,
  commandParamsOf,
  commandStates,
  type CommandKind,
  type CommandState,
} from '@app/contract/commands';
import type { Db } from '#api/db/client.ts';
import { commandBatches, machineCommands } from '#api/db/schema/commands.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '#api/lib/errors.ts';
import type { AuthContext } from '#api/lib/request-context.ts';
import type { SignatureInput } from '@app/contract/signatures';
import type { GroupsService } from '../groups/groups-service.ts';
import type { SignatureService, Signer } from '../signatures/signature-service.ts';

type BatchRow = typeof commandBatches.$inferSelect;
/** A subquery of machine ids (built before a transaction: the embedded database has one connection). */
type Machines = ReturnType<GroupsService['machineIdsOf']>;
/** What a batch was sent to, as stored: resolved to machines when it is queued. */
type StoredTarget =
  { ids: string[] } | { allMatching: Record<string, unknown> } | { groupId: string; groupName: string };

const describe = (target: StoredTarget): string => {
  if ('ids' in target)
    return `${target.ids.length} ${target.ids.length === 1 ? 'machine' : 'machines'} picked`;
  if ('groupId' in target) return `group ${target.groupName}`;
  const filters = Object.entries(target.allMatching).map(([k, v]) => `${k} ${String(v)}`);
  return filters.length ? `machines matching ${filters.join(', ')}` : 'every machine';
};

/**
 * One command to several machines (decision 077): each machine gets its own copy (machine_commands,
 * batch_id) in one INSERT ... SELECT, resolving a group or filter at that moment. With second-admin
 * approval on, the batch waits for another admin; the copies are made when they approve.
 */
export function createCommandBatches({
  db,
  now,
  groups,
  secondAdminApproval,
  signatures,
}: {
  db: Db;
  now: () => Date;
  groups: GroupsService;
  secondAdminApproval: boolean;
  /** The approval is signed (decision 083). */
  signatures: Pick<SignatureService, 'sign' | 'listFor'>;
}) {
  /** The ids of the machines a target names now, as a subquery. */
  // Wrapped in an object: an async function answering the query builder itself would run it.
  async function machinesOf(target: StoredTarget): Promise<{ query: Machines }> {
    if ('groupId' in target) return { query: groups.machineIdsOf(await groups.rowOf(target.groupId)) };
    return { query: groups.machinesSelected(target) };
  }

  async function get(id: string): Promise<CommandBatch> {
    const [row] = await db.select().from(commandBatches).where(eq(commandBatches.id, id)).limit(1);
    if (!row) throw new NotFoundError(commandBatchMessages.notFound);
    const counted = await db
      .select({ state: machineCommands.state, n: count() })
      .from(machineCommands)
      .where(eq(machineCommands.batchId, id))
      .groupBy(machineCommands.state);
    const counts = Object.fromEntries(commandStates.map((s) => [s, 0])) as Record<CommandState, number>;
    for (const c of counted) counts[c.state as CommandState] = c.n;
    const signed = await signatures.listFor('command-batch', [id]);
    return {
      _id: row.id,
      kind: row.kind as CommandKind,
      params: row.params as Record<string, unknown>,
      ttlMinutes: row.ttlMinutes,
      target: describe(row.target as StoredTarget),
      state: row.state as CommandBatchState,
      machineCount: row.machineCount,
      counts,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy,
      decidedAt: row.decidedAt?.toISOString() ?? null,
      decidedBy: row.decidedBy,
      signatures: signed.get(id)!,
    };
  }

  /** Makes every machine's copy, in one statement; answers how many. */
  async function queue(row: BatchRow, target: { query: Machines }, tx: Db): Promise<number> {
    const at = now();
    const machines = target.query.as('machines');
    const inserted = await tx.execute(sql`
      insert into machine_commands
        (device_id, batch_id, kind, params, state, created_at, created_by_id, created_by, expires_at)
      select machines.id, ${row.id}::uuid, ${row.kind}, ${JSON.stringify(row.params)}::jsonb, 'queued',
        ${at.toISOString()}::timestamptz, ${row.createdById}::uuid, ${row.createdBy},
        ${new Date(at.getTime() + row.ttlMinutes * 60_000).toISOString()}::timestamptz
      from ${machines}`);
    const n = Number(
      (inserted as { rowCount?: number; affectedRows?: number }).rowCount ??
        (inserted as { affectedRows?: number }).affectedRows ??
        0,
    );
    await tx.update(commandBatches).set({ machineCount: n }).where(eq(commandBatches.id, row.id));
    return n;
  }

  return {
    get,

    /** Sends a command to the target: queued at once, or waiting for a second admin. */
    async send(body: SendCommandBatchBody, auth: AuthContext): Promise<CommandBatch> {
      const target: StoredTarget = body.target.ids
        ? { ids: [...new Set(body.target.ids.map((id) => id.toLowerCase()))] }
        : body.target.groupId
          ? { groupId: body.target.groupId, groupName: (await groups.rowOf(body.target.groupId)).name }
          : { allMatching: body.target.allMatching! };
      const machines = await machinesOf(target);
      const [matched] = await db.select({ n: count() }).from(machines.query.as('m'));
      if (!matched?.n) throw new BadRequestError(commandBatchMessages.noMachines);
      const waits = secondAdminApproval;
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(commandBatches)
          .values({
            kind: body.kind,
            params: commandParamsOf(body),
            ttlMinutes: body.ttlMinutes ?? commandCatalogue[body.kind].ttlMinutes,
            target,
            state: waits ? 'awaiting-approval' : 'queued',
            createdAt: now(),
            createdById: auth.userId,
            createdBy: auth.email,
          })
          .returning();
        if (!waits) await queue(row!, machines, tx as unknown as Db);
        return row!.id;
      });
      return get(id);
    },

    /** Another admin approves: the copies are made now (a group or filter resolved now). */
    /**
     * The second admin's approval, signed in its transaction (decision 083): what is signed is the
     * batch as asked (command, parameters, target, who sent it). A batch that cannot be approved is
     * refused before the password is looked at.
     */
    async approve(id: string, signer: Signer, input: SignatureInput): Promise<CommandBatch> {
      const auth = signer;
      const [waiting] = await db.select().from(commandBatches).where(eq(commandBatches.id, id)).limit(1);
      if (!waiting) throw new NotFoundError(commandBatchMessages.notFound);
      const machines = await machinesOf(waiting.target as StoredTarget);
      const moved = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(commandBatches)
          .set({ state: 'queued', decidedAt: now(), decidedBy: auth.email })
          .where(
            and(
              eq(commandBatches.id, id),
              eq(commandBatches.state, 'awaiting-approval'),
              ne(commandBatches.createdById, auth.userId),
            ),
          )
          .returning();
        if (!row) return false;
        await signatures.sign(tx as unknown as Db, signer, {
          recordType: 'command-batch',
          recordId: id,
          content: {
            batchId: id,
            kind: row.kind,
            params: row.params,
            ttlMinutes: row.ttlMinutes,
            target: row.target,
            createdAt: row.createdAt,
            createdBy: row.createdBy,
          },
          input,
        });
        await queue(row, machines, tx as unknown as Db);
        return true;
      });
      if (!moved) await refusal(id, auth);
      return get(id);
    },

    async reject(id: string, auth: AuthContext): Promise<CommandBatch> {
      const done = await db
        .update(commandBatches)
        .set({ state: 'rejected', decidedAt: now(), decidedBy: auth.email })
        .where(and(eq(commandBatches.id, id), eq(commandBatches.state, 'awaiting-approval')))
        .returning({ id: commandBatches.id });
      if (done.length === 0) {
        const batch = await get(id);
        if (batch.state !== 'awaiting-approval') throw new ConflictError(commandBatchMessages.notAwaiting);
      }
      return get(id);
    },

    /** The kind of a batch (the approval's permission check), or a 404. */
    async kindOf(id: string): Promise<CommandKind> {
      const [row] = await db
        .select({ kind: commandBatches.kind })
        .from(commandBatches)
        .where(eq(commandBatches.id, id))
        .limit(1);
      if (!row) throw new NotFoundError(commandBatchMessages.notFound);
      return row.kind as CommandKind;
    },
  };

  /** Why an approval moved nothing: gone, decided already, or asked by this admin. */
  async function refusal(id: string, auth: Pick<AuthContext, 'userId'>): Promise<never> {
    const [row] = await db.select().from(commandBatches).where(eq(commandBatches.id, id)).limit(1);
    if (!row) throw new NotFoundError(commandBatchMessages.notFound);
    if (row.state !== 'awaiting-approval') throw new ConflictError(commandBatchMessages.notAwaiting);
    if (row.createdById === auth.userId) throw new ForbiddenError(commandBatchMessages.approverMustDiffer);
    throw new ConflictError(commandBatchMessages.notAwaiting);
  }
}
export type CommandBatches = ReturnType<typeof createCommandBatches>;
