import type { Database } from '../db/client.ts';
import { openMigratedPglite } from './pglite-template.ts';

/*
 * Migrated in-memory PGlite databases, kept for the next test app of this worker (CONTRIBUTING.md,
 * "How long the fast loop takes"). A new one starts from the migrated template (pglite-template.ts),
 * about 0.6 CPU-seconds, or 1.5 more for the worker's first (PGlite's WebAssembly compiles); putting
 * a used one back to its just-migrated state costs 10 to 50 ms.
 * With the API project run without isolation (vitest.fast.config.ts) a worker keeps this module,
 * and so its databases, from one test file to the next; with isolation each file starts with an
 * empty pool, and its second and later test apps reuse the first one's database.
 *
 * A database comes back as migrations left it: every table a test wrote to is emptied (triggers
 * off, so the audit tables' append-only guard and the counters' triggers stay out of it), the rows
 * migrations insert (table_row_counts, ...) are put back, every sequence is set back and advisory
 * locks are released. One whose schema or session settings a test changed (a renamed table not
 * renamed back, a disabled trigger, a SET), or that a test closed, is discarded, never reused.
 */

type Client = {
  query: <T>(text: string, params?: unknown[]) => Promise<{ rows: T[] }>;
  exec: (text: string) => Promise<unknown>;
  closed: boolean;
};

type Pooled = { database: Database; client: Client; restore: string; schema: string };

const idle: Pooled[] = [];
let warned = false;
/** At most this many wait in a worker (a file opens at most a few apps at a time). */
const keep = 4;

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * What a test could change that a row reset would not undo: tables, columns, triggers, functions,
 * grants, and session settings (RESET ALL would not do: PGlite's search_path is set after start).
 * Settings at their defaults are left out: PL/pgSQL and pg_trgm add theirs when first used, which
 * from the template is after the fingerprint is taken, and that is no change a test made.
 */
const schemaFingerprint = `select md5(string_agg(x, ',' order by x)) as fp from (
  select format('c %s %s %s %s', c.oid, c.relname, c.relkind, c.relacl) as x from pg_class c
    where c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
  union all select format('a %s %s %s %s %s %s', a.attrelid, a.attname, a.atttypid, a.attnotnull, a.attisdropped, a.atthasdef)
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = 'public'::regnamespace and a.attnum > 0
  union all select format('t %s %s %s', tgrelid, tgname, tgenabled) from pg_trigger
  union all select format('p %s %s %s', p.oid, p.proname, md5(p.prosrc)) from pg_proc p
    where p.pronamespace = 'public'::regnamespace
  union all select format('n %s %s', oid, nspname) from pg_namespace
  union all select format('k %s %s %s', conname, conrelid, convalidated) from pg_constraint
    where connamespace = 'public'::regnamespace
  union all select format('s %s %s', name, setting) from pg_settings
    where context in ('user', 'superuser') and source <> 'default'
) s`;

/**
 * The SQL that puts back what migrations left in this just-migrated database (their rows, the
 * sequences' positions), and its schema's fingerprint.
 */
async function restorePlan(client: Client): Promise<{ restore: string; schema: string }> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select quote_ident(schemaname) || '.' || quote_ident(tablename) as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
  );
  const restores: string[] = [];
  for (const { name } of tables) {
    const { rows } = await client.query<{ rows: string | null; columns: string }>(
      `select (select json_agg(t)::text from ${name} t) as rows,
              (select string_agg(quote_ident(attname), ', ' order by attnum) from pg_attribute
                where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '') as columns`,
      [name],
    );
    const { rows: json, columns } = rows[0]!;
    // Generated columns are left to compute themselves; identity ones take their old values.
    if (json)
      restores.push(
        `insert into ${name} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${name}, ${quoteLiteral(json)});`,
      );
  }
  const { rows: sequences } = await client.query<{ name: string; value: string; called: boolean }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name,
            coalesce(last_value, start_value)::text as value, last_value is not null as called
      from pg_sequences`,
  );
  const setvals = sequences.map((s) => `select setval(${quoteLiteral(s.name)}, ${s.value}, ${s.called});`);
  const { rows } = await client.query<{ fp: string }>(schemaFingerprint);
  return { restore: [...restores, ...setvals].join('\n'), schema: rows[0]!.fp };
}

/**
 * Every table a test wrote to is emptied with DELETE. TRUNCATE gives each table and index new files,
 * and on PGlite's in-memory file system that cost about 10 ms a table: 100 ms of every reset, about a
 * tenth of the API project's CPU time. DELETE keeps the old rows' slots as dead tuples; nothing here
 * vacuums them, so new rows still go after them, in the order they are written, as in a fresh
 * database (a query without ORDER BY finds what it found before). A table was written to when it
 * has any page at all (it keeps them after the DELETE: emptying an empty table is cheap); a table
 * migrations filled is always emptied and filled again.
 */
const writtenTables = `select c.oid::regclass::text as name from pg_class c
  where c.relkind = 'r' and pg_relation_size(c.oid) > 0
    and c.relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
    and c.relnamespace::regnamespace::text <> 'drizzle'`;

async function reset({ client, restore }: Pooled) {
  // A test that failed inside a transaction of its own may have left it open.
  await client.exec('rollback; select pg_advisory_unlock_all();');
  const { rows } = await client.query<{ name: string }>(writtenTables);
  await client.exec(
    [
      'set session_replication_role = replica;',
      // Replica mode: no triggers, so no foreign key checks and the order of the tables does not matter.
      ...rows.map((r) => `delete from ${r.name};`),
      restore,
      'set session_replication_role = default;',
    ].join('\n'),
  );
}

async function openPooled(): Promise<Pooled> {
  const database = await openMigratedPglite();
  const client = (database.db as unknown as { $client: Client }).$client;
  return { database, client, ...(await restorePlan(client)) };
}

/** A just-migrated in-memory database; `release` hands it back for the next test app. */
export async function pooledPglite(): Promise<{ database: Database; release: () => Promise<void> }> {
  const pooled = idle.pop() ?? (await openPooled());
  let released = false;
  return {
    database: pooled.database,
    release: async () => {
      if (released) return;
      released = true;
      if (pooled.client.closed) return;
      const reusable =
        idle.length < keep &&
        (await pooled.client
          .query<{ fp: string }>(schemaFingerprint)
          .then(({ rows }) => rows[0]?.fp === pooled.schema)
          .catch(() => false));
      if (reusable) {
        try {
          await reset(pooled);
          idle.push(pooled);
          return;
        } catch (error) {
          // Whatever the test left behind, the database is not trusted again. Said once: every app
          // of the run may now be paying for a new database.
          if (!warned)
            console.warn('pglite-pool: a used database could not be reset, so none is reused', error);
          warned = true;
        }
      }
      await pooled.database.close();
    },
  };
}
