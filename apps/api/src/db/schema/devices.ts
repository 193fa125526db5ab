import { sql, type SQL } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { licenceStates as licenceStateValues } from '@app/contract/licences';
import type { SettingValues, SettingsFromGroups } from '@app/contract/machine-settings';
import type { MaintenanceWindow } from '@app/contract/maintenance-windows';
import { customers } from './customers.ts';
import { roles, users } from './users.ts';

/**
 * The machines. Every sortable column has a btree index ending in id (the tie-breaker), so a page in
 * any order is an index range; search goes through one trigram index over the searchable columns.
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    machineNumber: text('machine_number').notNull(),
    serialNumber: text('serial_number').notNull(),
    location: text('location').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    city: text('city').notNull(),
    country: text('country').notNull(),
    address: text('address').notNull(),
    status: smallint('status').notNull().default(2),
    /**
     * The status of the device's latest subscription, kept here (not joined per request) so the list
     * can sort and page by it through an index at any size.
     */
    subscriptionStatus: smallint('subscription_status'),
    // Lower-cased search text: one trigram index serves a substring search over all five columns.
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        (): SQL =>
          sql`lower(${devices.machineNumber} || ' ' || ${devices.serialNumber} || ' ' || ${devices.location} || ' ' || ${devices.city} || ' ' || ${devices.country})`,
      ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /*
     * Check-in (device API): the last call from the machine, the app version its heartbeat named and
     * where it said it was. Written in coalesced batches (modules/device-api/check-ins.ts), never
     * per request, and indexed for the list's sortable Last Seen and App Version columns.
     */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    appVersionCode: integer('app_version_code'),
    appVersionName: text('app_version_name'),
    /** The app's package (appName) the heartbeat named with its version: counts are by both (issue 35 item 2). */
    appPackage: text('app_package'),
    reportedLatitude: doublePrecision('reported_latitude'),
    reportedLongitude: doublePrecision('reported_longitude'),
    /*
     * Where the fleet map puts the machine: where it last said it was, else where it was registered.
     * Kept as columns so the map groups and bounds plain numbers (decision 052).
     */
    mapLatitude: doublePrecision('map_latitude')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`coalesce(${devices.reportedLatitude}, ${devices.latitude})`),
    mapLongitude: doublePrecision('map_longitude')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`coalesce(${devices.reportedLongitude}, ${devices.longitude})`),
    // The licence (decision 068), derived by modules/licences, kept here for the list's index and
    // the device API; the version grows with every change (active_until: when grace begins).
    licenceState: text('licence_state', { enum: licenceStateValues }).notNull().default('unlicensed'),
    licencePaidThrough: timestamp('licence_paid_through', { withTimezone: true }),
    licenceActiveUntil: timestamp('licence_active_until', { withTimezone: true }),
    licenceGraceUntil: timestamp('licence_grace_until', { withTimezone: true }),
    licenceVersion: integer('licence_version').notNull().default(1),
    licenceSince: timestamp('licence_since', { withTimezone: true }),
    /*
     * Remote operations (issue 37 item 4): since when the heartbeat says a treatment is running
     * (check-ins write it), and the local hours in which the machine may be interrupted, set on it or
     * copied from the group it was set on (maintenance_window_group_id).
     */
    busySince: timestamp('busy_since', { withTimezone: true }),
    maintenanceWindow: jsonb('maintenance_window').$type<MaintenanceWindow>(),
    maintenanceWindowGroupId: uuid('maintenance_window_group_id'),
    /*
     * Settings of the app (issue 37 item 3, decision 079): the machine's own values, the values of
     * the groups set on it (key -> { value, groupId }, written when a group's are set, as windows
     * are), the version of its effective settings (grows on every change of them) and since when,
     * and the version the app last reported applying.
     */
    settingsOwn: jsonb('settings_own').$type<SettingValues>().notNull().default({}),
    settingsFromGroups: jsonb('settings_from_groups').$type<SettingsFromGroups>().notNull().default({}),
    settingsVersion: integer('settings_version').notNull().default(0),
    settingsChangedAt: timestamp('settings_changed_at', { withTimezone: true }),
    settingsAppliedVersion: integer('settings_applied_version'),
    settingsAppliedAt: timestamp('settings_applied_at', { withTimezone: true }),
    /**
     * The release (respecting windows) this machine's last update check was told to wait for, and
     * why ('window' or 'treatment'): the rollout's progress counts them (issue 37 item 4).
     */
    updateWaitingReleaseId: uuid('update_waiting_release_id'),
    updateWaitingReason: text('update_waiting_reason'),
    /** The customer holding it now: machine_assignments' open period, kept here (decision 087). */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
  },
  (t) => [
    // Never seen sorts as the oldest and no version as the lowest, so newest-first ends with them.
    index('devices_last_seen_at_id_idx').on(lastSeenSortKey(t), t.id),
    index('devices_app_version_code_id_idx').on(appVersionSortKey(t), t.id),
    // The App version filter by app and code (issue 35 item 2): one app's few machines on a common code.
    index('devices_app_version_package_id_idx').on(appVersionSortKey(t), t.appPackage, t.id),
    // The plain column, so the dashboard's online and never-seen counts are index-only range counts
    // (an expression index cannot answer an index-only scan; decision 050).
    index('devices_last_seen_at_idx').on(t.lastSeenAt),
    index('devices_update_waiting_idx')
      .on(t.updateWaitingReleaseId)
      .where(sql`${t.updateWaitingReleaseId} is not null`),
    // The Settings drift facet and the dashboard's count: only drifting machines are in it.
    index('devices_settings_drift_idx')
      .on(t.settingsChangedAt)
      .where(sql`${t.settingsVersion} > coalesce(${t.settingsAppliedVersion}, 0)`),
    uniqueIndex('devices_machine_number_lower_idx').on(sql`lower(${t.machineNumber})`),
    uniqueIndex('devices_serial_number_lower_idx').on(sql`lower(${t.serialNumber})`),
    index('devices_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // Migration 0044 builds it with INCLUDE (the facet columns), which Drizzle cannot say: a facet's
    // page in the default order is tested in the index alone (decision 078).
    index('devices_created_at_id_idx').on(t.createdAt, t.id),
    index('devices_machine_number_id_idx').on(t.machineNumber, t.id),
    index('devices_serial_number_id_idx').on(t.serialNumber, t.id),
    index('devices_location_id_idx').on(t.location, t.id),
    index('devices_city_id_idx').on(t.city, t.id),
    index('devices_country_id_idx').on(t.country, t.id),
    index('devices_status_id_idx').on(t.status, t.id),
    // The fleet map's view bounds: a longitude range, then latitude (decision 052).
    index('devices_map_position_idx').on(t.mapLongitude, t.mapLatitude),
    // With the index above, the whole fleet's extent is four index endpoints, not a scan.
    index('devices_map_latitude_idx').on(t.mapLatitude),
    index('devices_subscription_status_id_idx').on(t.subscriptionStatus, t.id),
    index('devices_licence_state_id_idx').on(t.licenceState, t.id),
    index('devices_customer_id_id_idx').on(t.customerId, t.id),
    // The licence sweep's clocks: an active licence whose time is up, a grace that has run out.
    index('devices_licence_active_until_idx')
      .on(t.licenceActiveUntil)
      .where(sql`${t.licenceState} = 'active'`),
    index('devices_licence_grace_until_idx')
      .on(t.licenceGraceUntil)
      .where(sql`${t.licenceState} = 'grace'`),
  ],
);

/** The sort keys of the Last Seen and App Version columns; their indexes are built on exactly these. */
export const lastSeenSortKey = (t: { lastSeenAt: unknown }): SQL =>
  sql`coalesce(${t.lastSeenAt}, '-infinity'::timestamptz)`;
export const appVersionSortKey = (t: { appVersionCode: unknown }): SQL =>
  sql`coalesce(${t.appVersionCode}, -1)`;

/**
 * Doctors, patients and technicians are users of the devices' mobile app. Their numeric userId (the
 * "Doctor ID" on screen, and the userId their logs carry) comes from one sequence, so it names one
 * person whatever the kind.
 */
export const appUserIdSeq = pgSequence('app_user_id_seq', { startWith: 1001 });
const appUserId = () =>
  integer('user_id')
    .notNull()
    .unique()
    .default(sql`nextval('app_user_id_seq')`);

/** The keys every kind of device user has: its own id, the shared numeric userId, and its device. */
const deviceUserKeys = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  userId: appUserId(),
  deviceId: uuid('device_id')
    .notNull()
    .references(() => devices.id, { onDelete: 'cascade' }),
  /** The id the machine's app gave the record: its idempotency key, unique per machine (null: made elsewhere). */
  clientId: uuid('client_id'),
  /** When the server received it (createTime is the machine's own time). */
  receivedAt: timestamp('received_at', { withTimezone: true }),
  /** Who held the machine at createTime: stamped by the database (migration 0055, decision 087). */
  customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
});

/** The spec's doctor/patient form fields beyond the listed columns, as the app registered them. */
const personDetails = () => ({
  nickName: text('nick_name'),
  sex: smallint('sex'),
  age: smallint('age'),
  city: text('city'),
  state: text('state'),
  country: text('country'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
});

export const doctors = pgTable(
  'doctors',
  {
    ...deviceUserKeys(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    phonenumber: text('phonenumber'),
    address: text('address'),
    status: smallint('status').notNull().default(2),
    createTime: timestamp('create_time', { withTimezone: true }).defaultNow(),
    ...personDetails(),
    /** Doctors sign in on their machine with userName and this password (argon2id); null: cannot sign in. */
    passwordHash: text('password_hash'),
    /** The app role (roles.type = 'app') the technician registered the doctor under. */
    roleId: uuid('role_id').references(() => roles.id, { onDelete: 'set null' }),
    /** The technician who registered the doctor. */
    registeredBy: uuid('registered_by'),
  },
  (t) => [
    index('doctors_device_id_create_time_idx').on(t.deviceId, t.createTime, t.id),
    uniqueIndex('doctors_device_id_client_id_idx').on(t.deviceId, t.clientId),
    index('doctors_customer_id_create_time_idx').on(t.customerId, t.createTime, t.id),
    // A doctor's sign-in name is unique on the machine through device_user_names (below).
  ],
);

export const technicians = pgTable(
  'technicians',
  {
    ...deviceUserKeys(),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    phonenumber: text('phonenumber'),
    status: smallint('status').notNull().default(2),
    createTime: timestamp('create_time', { withTimezone: true }).defaultNow(),
    /**
     * The console user (role of type app) this technician row assigns to the machine: the admin
     * creates technicians in User Management and assigns them; they sign in with that account.
     */
    accountId: uuid('account_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('technicians_device_id_create_time_idx').on(t.deviceId, t.createTime, t.id),
    uniqueIndex('technicians_device_id_account_id_idx').on(t.deviceId, t.accountId),
    index('technicians_account_id_idx').on(t.accountId),
    index('technicians_customer_id_create_time_idx').on(t.customerId, t.createTime, t.id),
  ],
);

/**
 * The names people sign in with on a machine, one row per machine and lower-cased name, so no two
 * people of a machine share one and sign-in finds exactly one (issue 32). A row is a doctor who can
 * sign in (has a password) or a technician assigned to the machine, under their console account's
 * user name (users.user_name, what they sign in with). Kept by triggers on doctors, technicians
 * and users (migration 0033), never written by the API: a person whose name is taken on the
 * machine is refused by this table's primary key, whichever route or race brought them.
 */
export const deviceUserNames = pgTable(
  'device_user_names',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** lower(user name), by the database's lower(): compare with `lower(<input>)` in SQL. */
    nameKey: text('name_key').notNull(),
    doctorId: uuid('doctor_id').references(() => doctors.id, { onDelete: 'cascade' }),
    technicianId: uuid('technician_id').references(() => technicians.id, { onDelete: 'cascade' }),
  },
  (t) => [
    // Its name says user_name: the console's user edit maps a violation of it to "user name taken".
    primaryKey({ name: 'device_user_names_device_id_user_name_pk', columns: [t.deviceId, t.nameKey] }),
    uniqueIndex('device_user_names_doctor_id_idx').on(t.doctorId),
    uniqueIndex('device_user_names_technician_id_idx').on(t.technicianId),
    check('device_user_names_one_person', sql`num_nonnulls(${t.doctorId}, ${t.technicianId}) = 1`),
  ],
);

export const patients = pgTable(
  'patients',
  {
    ...deviceUserKeys(),
    doctorId: uuid('doctor_id').references(() => doctors.id, { onDelete: 'set null' }),
    patientname: text('patientname').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    createTime: timestamp('create_time', { withTimezone: true }).defaultNow(),
    address: text('address'),
    ...personDetails(),
  },
  (t) => [
    uniqueIndex('patients_device_id_client_id_idx').on(t.deviceId, t.clientId),
    index('patients_device_id_create_time_idx').on(t.deviceId, t.createTime, t.id),
    index('patients_doctor_id_create_time_idx').on(t.doctorId, t.createTime, t.id),
    index('patients_customer_id_create_time_idx').on(t.customerId, t.createTime, t.id),
  ],
);
