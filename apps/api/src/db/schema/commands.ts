import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { commandKinds, commandStates } from '@app/contract/commands';
import { devices } from './devices.ts';

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/*
 * A command sent to several machines at once (picked, all matching a filter, or a group; decision
 * 077). It waits for a second admin's approval when ROLLOUT_SECOND_ADMIN is on; once approved (or
 * at once without it) one INSERT ... SELECT makes each machine's copy, resolving a group or filter
 * then. `target` says what was asked, as the console shows it.
 */
export const commandBatches = pgTable(
  'command_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    params: jsonb('params').notNull().default({}),
    ttlMinutes: integer('ttl_minutes').notNull(),
    target: jsonb('target').notNull(),
    state: text('state').notNull(),
    machineCount: integer('machine_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    createdById: uuid('created_by_id'),
    createdBy: text('created_by').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, precision: 3 }),
    decidedBy: text('decided_by'),
  },
  (t) => [
    index('command_batches_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('command_batches_kind_known', sql`${t.kind} in (${inList(commandKinds)})`),
    check('command_batches_state_known', sql`${t.state} in ('awaiting-approval', 'queued', 'rejected')`),
  ],
);

/*
 * One machine's copy of a command (issue 37, decision 077). Its state moves only forward: queued →
 * delivered → succeeded | failed, or to expired (its TTL) or cancelled (while queued). Every change
 * is one conditional UPDATE, so two API instances, a late retry or a re-delivered result move it at
 * most once. A new row is announced on 'command_queued' (migration 0042) so each instance knows which
 * of its machines to hand something to without reading on every heartbeat.
 */
export const machineCommands = pgTable(
  'machine_commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** The batch it was sent in, when it went to several machines or a group (command_batches). */
    batchId: uuid('batch_id').references(() => commandBatches.id, { onDelete: 'set null' }),
    /** One of the contract's commandKinds; params as that kind declares them. */
    kind: text('kind').notNull(),
    params: jsonb('params').notNull().default({}),
    state: text('state').notNull().default('queued'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The admin who sent it: their id, and their name at the time (kept if the user goes). */
    createdById: uuid('created_by_id'),
    createdBy: text('created_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    /** 1 once handed over; a machine that missed the answer gets it again on a read only, uncounted. */
    deliveries: integer('deliveries').notNull().default(0),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    message: text('message'),
    /** An upload-diagnostics command's file in storage, once the machine sent it. */
    diagnosticsKey: text('diagnostics_key'),
    diagnosticsSize: bigint('diagnostics_size', { mode: 'number' }),
    /** The type the machine sent it as (text, gzip, zip): the download's name and type follow it. */
    diagnosticsType: text('diagnostics_type'),
    diagnosticsAt: timestamp('diagnostics_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // The machine's open commands, oldest first: what a heartbeat or a long-poll hands over.
    index('machine_commands_open_idx')
      .on(t.deviceId, t.createdAt)
      .where(sql`${t.state} in ('queued', 'delivered')`),
    // Device Details' history, newest first.
    index('machine_commands_device_created_idx').on(t.deviceId, t.createdAt.desc(), t.id.desc()),
    // A batch's counts by state.
    index('machine_commands_batch_state_idx')
      .on(t.batchId, t.state)
      .where(sql`${t.batchId} is not null`),
    // Machines with a failed command lately: the dashboard's figure and Device Management's filter.
    index('machine_commands_failed_idx')
      .on(t.finishedAt, t.deviceId)
      .where(sql`${t.state} = 'failed'`),
    // The expiry sweep.
    index('machine_commands_open_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} in ('queued', 'delivered')`),
    check('machine_commands_kind_known', sql`${t.kind} in (${inList(commandKinds)})`),
    check('machine_commands_state_known', sql`${t.state} in (${inList(commandStates)})`),
  ],
);
