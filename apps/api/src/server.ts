import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/client.ts';
import { castFile } from './demo/demo-fleet-cast.ts';
import { realisticPace, startDemoFleet } from './demo/demo-fleet.ts';
import { seedDemoData } from './demo/seed-demo.ts';
import { writeBackup } from './lib/backup/data-dir-backup.ts';
import { listenForOperator } from './lib/operator-socket.ts';
import { createTerminalLog } from './lib/terminal-log.ts';
import { createStorage } from './lib/storage/create-storage.ts';
import { createAuditChainService } from './modules/audit-chain/audit-chain-service.ts';
import { operatorResetPassword } from './modules/auth/operator-reset-password.ts';
import { createEnrolmentService } from './modules/device-api/enrolment-service.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  // Under the start-up lock, so instances started together create one first admin and one demo set.
  const { first, demo } = await database.startupLock(async () => ({
    first: await bootstrap(database.db, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
    }),
    // The demo data set fills an empty database (DEMO_DATA; on by default for the embedded one).
    demo: config.demoData ? await seedDemoData(database.db, { storage: createStorage(config) }) : null,
  }));
  // Readable lines for a person at a terminal; JSON for a log collector, or when asked.
  const pretty = (config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const terminal = pretty ? createTerminalLog({ out: (text) => process.stdout.write(text) }) : null;
  const app = await buildApp({ config, database, logStream: terminal ?? undefined });
  await app.listen({ port: config.port, host: config.host });
  const fleet = config.demoFleet ? await startDemoFleetOn(app, config, database.db) : null;
  // The embedded database is this process's alone: operator commands reach it through the server.
  const operator =
    database.kind === 'pglite'
      ? await listenForOperator(
          config.dataDir,
          {
            'reset-password': (request) => operatorResetPassword(database.db, request.email, new Date()),
            backup: (request) =>
              writeBackup({
                dataDir: config.dataDir,
                storage: config.storage.kind,
                dumpDatabase: database.dumpDataDir!,
                out: request.out,
              }),
            'verify-audit': () => createAuditChainService({ db: database.db }).verify(),
          },
          app.log,
        )
      : null;

  const url = `${config.publicUrl}/login-admin`;
  const lines = [`\n  Device admin console is ready: ${url}`];
  if (first.generatedPassword) {
    lines.push(
      `  First admin: ${first.email}  password: ${first.generatedPassword}`,
      '  (shown once; set ADMIN_PASSWORD to choose it)',
    );
  } else if (first.created) {
    lines.push(`  First admin: ${first.email} with the password from ADMIN_PASSWORD`);
  } else {
    lines.push(`  Sign in as ${first.email} (or any admin user)`);
  }
  if (config.mailTransport === 'print')
    lines.push(
      '  Mail is not delivered (no SMTP_URL): each message is printed here and kept on the Outbox screen',
    );
  else if (config.mailTransport === 'outbox')
    lines.push(
      '  Mail is not delivered (MAIL_TRANSPORT=outbox): each message is kept on the Outbox screen only',
    );
  if (demo?.seeded)
    lines.push(
      `  Demo data loaded: ${demo.devices} devices with their doctors, patients, technicians, treatments and logs`,
    );
  if (fleet)
    lines.push(
      `  Demo fleet: ${fleet.machines} demo machines are enrolled and keep calling this server (DEMO_FLEET=0 turns it off)`,
    );
  console.log(lines.join('\n') + '\n');

  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await operator?.close();
    await fleet?.stop();
    await app.close();
    await database.close();
    terminal?.flush();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/** The demo fleet calls this server where it listens, as machines at a clinic would (issue 35 item 1). */
function startDemoFleetOn(app: FastifyInstance, config: Config, db: Db) {
  const { address, port } = app.server.address() as AddressInfo;
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
  return startDemoFleet({
    db,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    issuer: config.publicUrl,
    enrolment: createEnrolmentService({ db, secret: config.jwtSecret, now: () => new Date() }),
    castFile: castFile(config.dataDir),
    pace: realisticPace(config.deviceHeartbeatSeconds, config.alarms.errorBurst),
    log: app.log,
  });
}

void main();
