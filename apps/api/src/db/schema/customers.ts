import { sql, type SQL } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The business's customers: clinics (issue 39 item 1, decision 087). A machine is held by one
 * customer at a time (machine_assignments, over time; devices.customer_id, the current holder), and
 * every record a machine sends belongs to the customer that held it when the record was made
 * (stamped by the database, migration 0055). Clinic users (users.customer_id) come with item 3.
 */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    country: text('country').notNull(),
    address: text('address').notNull().default(''),
    billingEmail: text('billing_email').notNull().default(''),
    taxId: text('tax_id').notNull().default(''),
    notes: text('notes').notNull().default(''),
    /** The clinic's own users must use two-step sign-in (issue 39 item 3). */
    requireMfa: boolean('require_mfa').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // Lower-cased search text: one trigram index serves a substring search over these columns.
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        (): SQL =>
          sql`lower(${customers.name} || ' ' || ${customers.country} || ' ' || ${customers.billingEmail} || ' ' || ${customers.taxId})`,
      ),
  },
  (t) => [
    uniqueIndex('customers_name_lower_idx').on(sql`lower(${t.name})`),
    index('customers_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // Every sortable column ends in id (the tie-breaker), so a page in any order is an index range.
    index('customers_name_id_idx').on(t.name, t.id),
    index('customers_country_id_idx').on(t.country, t.id),
    index('customers_created_at_id_idx').on(t.createdAt, t.id),
    check('customers_name_not_blank', sql`length(trim(${t.name})) > 0`),
  ],
);
