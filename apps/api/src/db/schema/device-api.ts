import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { devices, doctors, technicians } from './devices.ts';
import { users } from './users.ts';

/*
 * The machines' identities (docs/device-api.md). Nothing here is kept in clear: codes are HMACs
 * under the server's secret (50 bits typed by a person must not be brute-forced from a copy of the
 * database), credentials and session tokens (256 random bits) are SHA-256 digests.
 */

/** A one-time enrolment code an admin issued from Device Details; 24 h, single use, one live per device. */
export const enrolmentCodes = pgTable(
  'enrolment_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A newer code, or a revocation, voids an unused one. */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('enrolment_codes_code_hash_idx').on(t.codeHash),
    index('enrolment_codes_device_id_idx').on(t.deviceId, t.createdAt),
  ],
);

/** The secret a machine sends as `Authorization: Device <credential>`; at most one live per device. */
export const deviceCredentials = pgTable(
  'device_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The latest call made with this credential after it was revoked (at most once a minute; decision 049). */
    revokedCallAt: timestamp('revoked_call_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('device_credentials_secret_hash_idx').on(t.secretHash),
    index('device_credentials_revoked_call_idx')
      .on(t.revokedCallAt)
      .where(sql`${t.revokedCallAt} is not null`),
    uniqueIndex('device_credentials_live_per_device_idx')
      .on(t.deviceId)
      .where(sql`${t.revokedAt} is null`),
    index('device_credentials_device_id_idx').on(t.deviceId, t.createdAt),
  ],
);

/**
 * A doctor or technician signed in on one machine: bound to that machine's credential and to that
 * person. The access token is short-lived; the refresh token is exchanged once for a new pair.
 */
export const appSessions = pgTable(
  'app_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => deviceCredentials.id, { onDelete: 'cascade' }),
    doctorId: uuid('doctor_id').references(() => doctors.id, { onDelete: 'cascade' }),
    technicianId: uuid('technician_id').references(() => technicians.id, { onDelete: 'cascade' }),
    accessHash: text('access_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshHash: text('refresh_hash').notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('app_sessions_access_hash_idx').on(t.accessHash),
    uniqueIndex('app_sessions_refresh_hash_idx').on(t.refreshHash),
    index('app_sessions_device_id_idx').on(t.deviceId),
    // When the session ended (least() skips a null revoked_at): housekeeping's range (decision 072).
    index('app_sessions_ended_idx').on(sql`least(${t.revokedAt}, ${t.refreshExpiresAt})`),
  ],
);
