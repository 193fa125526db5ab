import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from './customers.ts';

/**
 * The two fixed roles of a clinic's own users (issue 39 item 3, decision 088), made by migration 0056
 * with these ids: every clinic has a manager and staff, and nothing else, so they are not per clinic.
 * users' check constraint names them: a user holds one exactly when the user belongs to a customer.
 */
export const clinicRoleIds = {
  manager: 'c1a1c000-0000-4000-8000-000000000001',
  staff: 'c1a1c000-0000-4000-8000-000000000002',
} as const;

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The spec shows a numeric Role Id beside the _id; app-side forms send it as a number.
    roleId: serial('role_id').notNull().unique(),
    roleName: text('role_name').notNull(),
    // The spec's app and admin, and the clinic kind of the two fixed roles above (never made by the API).
    type: text('type', { enum: ['app', 'admin', 'clinic'] }).notNull(),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    // Names from the contract's permission catalogue; only a role of type admin uses them.
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    // The Roles screen's names are unique; the fixed clinic roles stand apart from them.
    uniqueIndex('roles_role_name_lower_idx')
      .on(sql`lower(${t.roleName})`)
      .where(sql`${t.type} <> 'clinic'`),
  ],
);

/**
 * Every catalogue permission this database has rolled out (bootstrap.ts): a permission added to the
 * catalogue is granted to the roles that should have it once, the first start that knows it.
 */
export const permissionRollouts = pgTable('permission_rollouts', {
  name: text('name').primaryKey(),
  rolledOutAt: timestamp('rolled_out_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    userName: text('user_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    isDeletable: boolean('is_deletable').notNull().default(true),
    profileImage: text('profile_image'),
    /** A clinic user's customer (issue 39 item 3); null for the supplier's own users. */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_user_name_lower_idx').on(sql`lower(${t.userName})`),
    index('users_role_id_idx').on(t.roleId),
    index('users_created_at_idx').on(t.createdAt),
    index('users_customer_id_idx')
      .on(t.customerId, t.createdAt)
      .where(sql`${t.customerId} is not null`),
    // A clinic user has a customer and a clinic role; a supplier's user has neither.
    check(
      'users_clinic_role_has_customer',
      sql`(${t.customerId} is not null) = (${t.roleId} in ('c1a1c000-0000-4000-8000-000000000001'::uuid, 'c1a1c000-0000-4000-8000-000000000002'::uuid))`,
    ),
  ],
);

/** A signed token is only good while its session row is: logout and password changes revoke it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    // When the admin last confirmed the password (and code) on this session: dangerous actions need
    // it within the last few minutes (lib/step-up.ts, decision 046).
    steppedUpAt: timestamp('stepped_up_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    // Housekeeping's range (decision 072) and the dashboard's sessions opened lately.
    index('sessions_created_at_idx').on(t.createdAt),
  ],
);
