import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  customerExportColumns,
  customerMessages,
  type Customer,
  type CustomerCreateBody,
  type CustomerExportQuery,
  type CustomerFacets,
  type CustomerListQuery,
  type CustomerSortKey,
  type CustomerUpdateBody,
} from '@app/contract/customers';
import { facetValueLimit } from '@app/contract/device-filters';
import type { Db } from '#api/db/client.ts';
import { customers } from '#api/db/schema/customers.ts';
import { devices } from '#api/db/schema/devices.ts';
import { machineAssignments } from '#api/db/schema/machine-assignments.ts';
import { subscriptions } from '#api/db/schema/subscriptions.ts';
import { keysetCsv, type ExportCursor } from '#api/lib/csv-export.ts';
import { chosenColumns } from '#api/lib/export-columns.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { containsPattern, isUniqueViolation, offsetOf, pageCount, pgErrorCode } from '#api/lib/pagination.ts';

type CustomerRow = typeof customers.$inferSelect;
type Filters = { search?: string; country?: string };

/**
 * The machines a customer holds now: one range of devices_customer_id_id_idx per row of a page. The
 * columns are named with their tables: drizzle leaves a column of the query's one table unqualified,
 * and an unqualified "id" inside the subquery would be the device's own (the count was always 0).
 */
const machineCount = sql<number>`(select count(*)::int from devices d where d.customer_id = "customers"."id")`;

const columns = {
  id: customers.id,
  name: customers.name,
  country: customers.country,
  address: customers.address,
  billingEmail: customers.billingEmail,
  taxId: customers.taxId,
  notes: customers.notes,
  requireMfa: customers.requireMfa,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
  machineCount,
};
type ListedRow = Omit<CustomerRow, 'searchText'> & { machineCount: number };

export const toCustomer = (r: ListedRow): Customer => ({
  _id: r.id,
  name: r.name,
  country: r.country,
  address: r.address,
  billingEmail: r.billingEmail,
  taxId: r.taxId,
  notes: r.notes,
  requireMfa: r.requireMfa,
  machineCount: r.machineCount,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The search (one trigram index over the lower-cased text) and the country facet, shared with the export. */
function whereOf({ search, country }: Filters): SQL | undefined {
  return and(
    search ? sql`${customers.searchText} like ${containsPattern(search.toLowerCase())}` : undefined,
    country ? eq(customers.country, country) : undefined,
  );
}

const sortColumn = { name: customers.name, country: customers.country, createdAt: customers.createdAt };
const defaultDirection: Record<CustomerSortKey, 'asc' | 'desc'> = {
  name: 'asc',
  country: 'asc',
  createdAt: 'desc',
};

/** The list's order: the column, then id (each sort has its index ending in id). */
function orderOf(sort: CustomerSortKey, direction: 'asc' | 'desc' | undefined) {
  const dir = (direction ?? defaultDirection[sort]) === 'asc' ? asc : desc;
  return { dir, by: [dir(sortColumn[sort]), dir(customers.id)] };
}

export function createCustomersService({ db, now }: { db: Db; now: () => Date }) {
  async function find(id: string): Promise<ListedRow> {
    const [row] = await db.select(columns).from(customers).where(eq(customers.id, id)).limit(1);
    if (!row) throw new NotFoundError(customerMessages.notFound);
    return row;
  }

  async function assertNameFree(name: string, exceptId?: string) {
    const [taken] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(
        and(
          sql`lower(${customers.name}) = lower(${name})`,
          exceptId ? sql`${customers.id} <> ${exceptId}` : undefined,
        ),
      )
      .limit(1);
    if (taken) throw new ConflictError(customerMessages.nameTaken);
  }

  /** A race past the check above still ends as a 409, not a 500. */
  const conflictOnDuplicate = (error: unknown): never => {
    if (isUniqueViolation(error)) throw new ConflictError(customerMessages.nameTaken);
    throw error;
  };

  const countOf = async (
    table: typeof devices | typeof subscriptions | typeof machineAssignments,
    id: string,
  ) =>
    ((await db.select({ n: count() }).from(table).where(eq(table.customerId, id))) as [{ n: number }])[0].n;

  return {
    find,

    async list(query: CustomerListQuery) {
      const where = whereOf(query);
      const { page, limit } = query;
      const [rows, [counted]] = await Promise.all([
        db
          .select(columns)
          .from(customers)
          .where(where)
          .orderBy(...orderOf(query.sort, query.direction).by)
          .limit(limit)
          .offset(offsetOf(page, limit)),
        db.select({ total: count() }).from(customers).where(where),
      ]);
      const total = counted!.total;
      return { customers: rows.map(toCustomer), total, totalPages: pageCount(total, limit), page, limit };
    },

    async facets({ search }: { search?: string }): Promise<CustomerFacets> {
      const rows = await db
        .select({ value: customers.country, count: count() })
        .from(customers)
        .where(whereOf({ search }))
        .groupBy(customers.country)
        .orderBy(desc(count()), asc(customers.country))
        .limit(facetValueLimit);
      return { countries: rows.map((r) => ({ value: r.value, label: r.value, count: r.count })) };
    },

    /** Every customer the filters match as CSV, in the list's order, read by keyset on (sort column, id). */
    exportCsv(query: CustomerExportQuery, counted: (rows: number) => void) {
      const { dir } = orderOf(query.sort, query.direction);
      const column = sortColumn[query.sort];
      const cursorAt = sql<string>`${column}::text`;
      const op = dir === asc ? sql`>` : sql`<`;
      const cast = query.sort === 'createdAt' ? sql`::timestamptz` : sql``;
      const after = (cursor: ExportCursor | null) =>
        cursor
          ? sql`(${column}, ${customers.id}) ${op} (${cursor.at}${cast}, ${cursor.id}::uuid)`
          : undefined;
      const cells = {
        name: (r: ListedRow) => r.name,
        country: (r: ListedRow) => r.country,
        address: (r: ListedRow) => r.address,
        billingEmail: (r: ListedRow) => r.billingEmail,
        taxId: (r: ListedRow) => r.taxId,
        machineCount: (r: ListedRow) => r.machineCount,
        createdAt: (r: ListedRow) => r.createdAt.toISOString(),
      };
      return keysetCsv(
        chosenColumns(customerExportColumns, cells, query.columns),
        (cursor, size) =>
          db
            .select({ ...columns, cursorAt })
            .from(customers)
            .where(and(whereOf(query), after(cursor)))
            .orderBy(...orderOf(query.sort, query.direction).by)
            .limit(size),
        counted,
      );
    },

    async get(id: string): Promise<Customer> {
      return toCustomer(await find(id));
    },

    async create(body: CustomerCreateBody): Promise<Customer> {
      await assertNameFree(body.name);
      const [row] = await db.insert(customers).values(body).returning().catch(conflictOnDuplicate);
      return toCustomer({ ...row!, machineCount: 0 });
    },

    async update(id: string, body: CustomerUpdateBody): Promise<Customer> {
      await find(id);
      if (body.name !== undefined) await assertNameFree(body.name, id);
      const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      await db
        .update(customers)
        .set({ ...changes, updatedAt: now() })
        .where(eq(customers.id, id))
        .catch(conflictOnDuplicate);
      return toCustomer(await find(id));
    },

    /**
     * Refused while it holds machines or has subscriptions, and once it has held any: the records
     * made there are its own (decision 087). The foreign keys refuse a race past these checks.
     */
    async remove(id: string): Promise<void> {
      await find(id);
      const machines = await countOf(devices, id);
      if (machines > 0) throw new ConflictError(customerMessages.holdsMachines(machines));
      const subs = await countOf(subscriptions, id);
      if (subs > 0) throw new ConflictError(customerMessages.hasSubscriptions(subs));
      if ((await countOf(machineAssignments, id)) > 0) throw new ConflictError(customerMessages.hasHistory);
      await db
        .delete(customers)
        .where(eq(customers.id, id))
        .catch((error: unknown) => {
          // 23503: a row still names it (a record stamped with it, a clinic user).
          if (pgErrorCode(error) === '23503') throw new ConflictError(customerMessages.hasHistory);
          throw error;
        });
    },
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
