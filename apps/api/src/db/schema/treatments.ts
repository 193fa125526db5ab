import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from './customers.ts';
import { devices, doctors, patients } from './devices.ts';

/** What the machines' apps record: each treatment, with its pictures. */
export const treatmentRecords = pgTable(
  'treatment_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    doctorId: uuid('doctor_id').references(() => doctors.id, { onDelete: 'set null' }),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    /** The patient's name as the app recorded it with the treatment. */
    userName: text('user_name').notNull(),
    treatmentDevice: text('treatment_device').notNull(),
    treatmentPlan: text('treatment_plan').notNull(),
    treatmentStartTime: timestamp('treatment_start_time', { withTimezone: true }),
    treatmentEndTime: timestamp('treatment_end_time', { withTimezone: true }),
    /** Minutes. */
    treatmentDuration: doublePrecision('treatment_duration'),
    /** Joules per pulse setting and joules delivered in total. */
    treatmentEnergy: doublePrecision('treatment_energy'),
    totalEnergyOutput: doublePrecision('total_energy_output'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The app's id for the record (idempotency key, unique per machine) and the server's receive time. */
    clientId: uuid('client_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /**
     * When the treatment took place: its start, or the record's time when the app sent none. Lists
     * sort by it ("newest first" is the latest started), day ranges and the dashboard's days count
     * by it (issue 35). Never null: created_at is not.
     */
    treatedAt: timestamp('treated_at', { withTimezone: true }).generatedAlwaysAs(
      sql`coalesce(treatment_start_time, created_at)`,
    ),
    /**
     * The customer that held the machine when the treatment took place (treated_at), set by the
     * database's stamping trigger (migration 0055, decision 087) and kept when the machine moves.
     */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('treatment_records_device_id_client_id_idx').on(t.deviceId, t.clientId),
    index('treatment_records_treated_at_id_idx').on(t.treatedAt, t.id),
    index('treatment_records_device_id_treated_at_idx').on(t.deviceId, t.treatedAt, t.id),
    index('treatment_records_doctor_id_treated_at_idx').on(t.doctorId, t.treatedAt, t.id),
    index('treatment_records_patient_id_treated_at_idx').on(t.patientId, t.treatedAt, t.id),
    index('treatment_records_customer_id_treated_at_idx').on(t.customerId, t.treatedAt, t.id),
  ],
);

export const treatmentImages = pgTable(
  'treatment_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    treatmentId: uuid('treatment_id')
      .notNull()
      .references(() => treatmentRecords.id, { onDelete: 'cascade' }),
    /** A URL the browser can show: a stored file's address or a data: URL. */
    url: text('url').notNull(),
    position: smallint('position').notNull().default(0),
    /** The app's id for the image. */
    clientId: uuid('client_id'),
  },
  (t) => [index('treatment_images_treatment_id_idx').on(t.treatmentId, t.position)],
);
