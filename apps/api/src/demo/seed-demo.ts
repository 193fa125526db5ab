import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import type { Storage } from '../lib/storage/storage.ts';
import { seedDevices, type DemoDevice } from './devices-seed.ts';
import { createRng, type Rng } from './rng.ts';

/** The fixed seed of the demo data set: the same names, numbers and images on every machine. */
export const demoSeed = 20240611;

/** What every domain's seed receives besides the database and its own generator. */
export type DemoContext = {
  /** Dates are laid out up to this moment. */
  now: Date;
  /** The demo devices (their serial numbers tie subscriptions to them). */
  devices: DemoDevice[];
  storage?: Storage;
};

type SeedFn = (db: Db, rng: Rng, context: DemoContext) => Promise<unknown>;

/**
 * Other domains add their part as a file in this folder exporting `seed<Thing>(db, rng, context)`;
 * it runs when the file is there, each with its own generator so one part never shifts another.
 */
const domainSeeds = [
  { file: 'users-seed.ts', name: 'seedUsers' },
  { file: 'subscriptions-seed.ts', name: 'seedSubscriptions' },
  { file: 'app-updates-seed.ts', name: 'seedAppUpdates' },
] as const;

async function loadSeed(file: string, name: string): Promise<SeedFn | null> {
  const url = new URL(`./${file}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) return null;
  const module = (await import(url.href)) as Record<string, unknown>;
  const fn = module[name];
  if (typeof fn !== 'function') throw new Error(`demo/${file} must export ${name}(db, rng, context)`);
  return fn as SeedFn;
}

export type SeedDemoResult = { seeded: boolean; devices: number };

/**
 * Loads the demo data set into a database that has no devices yet, all in one transaction (a
 * failure leaves the database as it was). A database with devices is left alone.
 */
export async function seedDemoData(
  db: Db,
  opts: { now?: Date; storage?: Storage; seed?: number } = {},
): Promise<SeedDemoResult> {
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(devices)) as [{ n: number }];
  if (n > 0) return { seeded: false, devices: n };
  const root = createRng(opts.seed ?? demoSeed);
  const now = opts.now ?? new Date();
  const seeds = await Promise.all(
    domainSeeds.map(async (s) => ({ ...s, fn: await loadSeed(s.file, s.name) })),
  );

  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const users = seeds.find((s) => s.name === 'seedUsers')?.fn;
    if (users) await users(txDb, root.fork('users'), { now, devices: [], storage: opts.storage });
    const demoDevices = await seedDevices(txDb, root.fork('devices'), now);
    const context: DemoContext = { now, devices: demoDevices, storage: opts.storage };
    for (const seed of seeds) {
      if (seed.fn && seed.name !== 'seedUsers') await seed.fn(txDb, root.fork(seed.name), context);
    }
    return { seeded: true, devices: demoDevices.length };
  });
}
