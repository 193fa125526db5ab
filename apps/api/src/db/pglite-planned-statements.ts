import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';

/**
 * Named statements on the embedded database, planned once (decision 044).
 *
 * PGlite plans every statement it is sent: drizzle's PGlite driver drops the name given to
 * `.prepare(name)`, and on PGlite's file system planning is dear (the planner asks each table's and
 * each index's size, an fstat apiece: 0.7 ms of a 1.5 ms device page). Here a named statement is
 * PREPAREd once and then run with EXECUTE, the values written into the EXECUTE as SQL literals
 * (PostgreSQL takes no bound parameters on EXECUTE itself).
 *
 * - A statement with LIMIT or OFFSET values is prepared once per set of values: a plan made
 *   without knowing them can be ruinous (at 100,000 devices, a first page read the whole table:
 *   66 ms instead of 0.1 ms). Console lists ask for the same few pages over and over.
 * - Any other named statement (a look-up by key) is prepared once and given its values on each
 *   EXECUTE; PostgreSQL then keeps a generic plan when it costs no more than a fresh one.
 *
 * At most `capacity` statements are kept; the least recently used is deallocated. A value with no
 * plain literal form here runs the ordinary way. PostgreSQL needs none of this: node-postgres
 * sends the name and the server keeps the statement.
 */
export type PlannedStatements = {
  /** Marks an SQL text as a named statement (drizzle's `.prepare(name)`). */
  markNamed(text: string): void;
  /** PGlite's `query`, running marked statements through their prepared plans. */
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  /** How many statements are prepared now (for tests). */
  size(): number;
};

const capacity = 200;
const pageBounds = /\b(limit|offset)\s+\$\d/i;
const parameter = /\$(\d+)/g;

/** A value as an SQL literal, or null when it has none here. */
export function sqlLiteral(value: unknown): string | null {
  if (value === null || value === undefined) return 'NULL';
  // Parenthesised, so a negative number can never meet a minus sign and start a comment.
  if (typeof value === 'number') return Number.isFinite(value) ? `(${value})` : null;
  if (typeof value === 'bigint') return `(${value})`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      if (item === null) items.push('NULL');
      else if (typeof item === 'number' && Number.isFinite(item)) items.push(String(item));
      else if (typeof item === 'string')
        items.push(`"${item.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);
      else return null;
    }
    return quoted(`{${items.join(',')}}`);
  }
  return null;
}

// standard_conforming_strings is on (PostgreSQL's default since 9.1): only quotes are doubled.
const quoted = (text: string) => (text.includes('\0') ? null : `'${text.replaceAll("'", "''")}'`);

export function plannedStatementsOn(client: PGlite): PlannedStatements {
  const named = new Set<string>();
  /** Prepared statement name by the text it was prepared from, least recently used first. */
  const prepared = new Map<string, Promise<string>>();
  let counter = 0;

  const statementFor = (text: string): Promise<string> => {
    const known = prepared.get(text);
    if (known) {
      prepared.delete(text);
      prepared.set(text, known);
      return known;
    }
    const name = `planned_${++counter}`;
    const ready = client.query(`prepare ${name} as ${text}`).then(() => name);
    ready.catch(() => prepared.delete(text));
    prepared.set(text, ready);
    if (prepared.size > capacity) {
      const [oldestText, oldest] = prepared.entries().next().value!;
      prepared.delete(oldestText);
      void oldest.then((n) => client.query(`deallocate ${n}`)).catch(() => {});
    }
    return ready;
  };

  return {
    markNamed: (text) => void named.add(text),
    size: () => prepared.size,
    async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
      if (!named.has(text)) return client.query<T>(text, params, options);
      const literals = params.map(sqlLiteral);
      if (literals.some((l) => l === null)) return client.query<T>(text, params, options);
      const literal = (_: string, n: string) => literals[Number(n) - 1] ?? 'NULL';
      if (pageBounds.test(text)) {
        const name = await statementFor(text.replace(parameter, literal));
        return client.query<T>(`execute ${name}`, [], options);
      }
      const name = await statementFor(text);
      const args = literals.length ? `(${literals.join(', ')})` : '';
      return client.query<T>(`execute ${name}${args}`, [], options);
    },
  };
}

/** PGlite's client as drizzle sees it: `query` goes through the planned statements. */
export const clientWithPlannedStatements = (client: PGlite, planned: PlannedStatements): PGlite =>
  new Proxy(client, {
    get(target, property) {
      if (property === 'query') return planned.query;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

type PrepareQuery = (
  query: { sql: string },
  fields: unknown,
  name: string | undefined,
  ...rest: unknown[]
) => unknown;

/**
 * Tells the planned statements which texts drizzle prepares by name. Drizzle hands the name to its
 * session's `prepareQuery` and its PGlite driver goes no further with it; the test of this module
 * fails if a drizzle upgrade changes that hand-over.
 */
export function markNamedStatements(db: object, planned: PlannedStatements) {
  const session = (db as { session?: { prepareQuery?: PrepareQuery } }).session;
  const prepareQuery = session?.prepareQuery;
  if (!session || typeof prepareQuery !== 'function')
    throw new Error("drizzle's session has no prepareQuery");
  session.prepareQuery = (query, fields, name, ...rest) => {
    if (name) planned.markNamed(query.sql);
    return prepareQuery.call(session, query, fields, name, ...rest);
  };
}
