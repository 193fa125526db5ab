// `npm run seed:demo`: loads the demo data set into the configured database (DATABASE_URL, or the
// embedded one in DATA_DIR) when it has no devices yet. Stop a server using the same embedded
// database first: only one process can open it.
import { bootstrap } from '../bootstrap.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createStorage } from '../lib/storage/create-storage.ts';
import { seedDemoData } from './seed-demo.ts';

try {
  const config = loadConfig(process.env, { takesPayments: false });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await bootstrap(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
    const started = Date.now();
    const result = await seedDemoData(database.db, { storage: createStorage(config) });
    console.log(
      result.seeded
        ? `Demo data loaded: ${result.devices} devices in ${((Date.now() - started) / 1000).toFixed(1)} s`
        : `The database already has ${result.devices} devices: demo data not loaded (it only fills an empty database).`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
