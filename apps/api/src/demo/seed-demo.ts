import { sql } from 'drizzle-orm';
import { createRng } from '@app/fake-data/random';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema/devices.ts';
import type { Storage } from '../lib/storage/storage.ts';
import { seedAppUpdates } from './app-updates-seed.ts';
import type { DemoContext } from './demo-context.ts';
import { seedDevices } from './devices-seed.ts';
import { seedSubscriptions } from './subscriptions-seed.ts';
import { seedUsers } from './users-seed.ts';

/** The fixed seed of the demo data set: the same names, numbers and images on every machine. */
export const demoSeed = 20240611;

/**
 * The domains' parts after the devices, in order. Each gets its own generator, forked by this
 * name, so adding one never shifts the others' data.
 */
const afterDevices = [
  { name: 'seedSubscriptions', fn: seedSubscriptions },
  { name: 'seedAppUpdates', fn: seedAppUpdates },
] as const;

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

  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    await seedUsers(txDb, root.fork('users'), { now, devices: [], storage: opts.storage });
    const demoDevices = await seedDevices(txDb, root.fork('devices'), now);
    const context: DemoContext = { now, devices: demoDevices, storage: opts.storage };
    for (const seed of afterDevices) await seed.fn(txDb, root.fork(seed.name), context);
    return { seeded: true, devices: demoDevices.length };
  });
}
