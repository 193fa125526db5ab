import { defineConfig } from 'vitest/config';

/*
 * `npm run test:fast`: the loop before every commit. The same three projects as `npm test` (contract,
 * web components, API on PGlite) minus the API files below, which `npm test` (vitest.config.ts)
 * still runs every time. Each one was, in a timed run, among the slowest files, because it waits on
 * real time, starts processes or sockets, or boots many databases; the file names why. Workers keep
 * what they load from file to file here (below); `npm test` gives every web file a fresh start.
 */
export const slowApiFiles = [
  // Boots a test app per proxy setting.
  'src/lib/trust-proxy.test.ts',
  // Real sockets held open past the request and header timeouts.
  'src/lib/request-timeouts.test.ts',
  // Stops and restarts the database under a running app.
  'src/lib/db-unavailable.test.ts',
  // Periodic jobs on the queue at periods of 1 to 4 s of real time, on two instances at once.
  'src/lib/job-queue.test.ts',
  'src/modules/jobs/jobs-routes.test.ts',
  // A real SMTP peer, retries on the clock; the retry file also boots a database of its own.
  'src/lib/mailer.test.ts',
  'src/lib/mailer-retry.test.ts',
  // An SMTP peer that holds its answers for seconds of real time, past the send bound and the lease.
  'src/lib/mailer-slow-smtp.test.ts',
  'src/modules/subscriptions/subscription-mail-slow-smtp.test.ts',
  // Migrate databases from nothing, not from the template, to check one migration's effect.
  'src/db/role-permissions-migration.test.ts',
  'src/db/device-user-names-migration.test.ts',
  'src/modules/audit-chain/audit-chain-migration.test.ts',
  // An S3-compatible server in the process.
  'src/modules/app-updates/app-updates-s3.test.ts',
  // Runs the operator CLI as a child process.
  'src/modules/auth/operator-reset-mfa.test.ts',
  // The same for a lost password (issue 35 item 4): the command as its own process, beside a server.
  'src/modules/auth/operator-reset-password.test.ts',
  // npm run audit:verify as its own process, beside a server and alone, on a data directory of its own.
  'src/modules/audit-chain/audit-verify-cli.test.ts',
  // npm run backup and restore as processes, beside real servers on temporary data directories.
  'src/lib/backup/backup-restore.test.ts',
  // Writes an APK fixture by running bench/apk-fixture.mjs as plain node (about 1 s a test).
  'src/modules/app-updates/apk-fixture-cli.test.ts',
  // npm run -s sbom as its own process (npm sbom on the lock, 3 to 5 s), then a served console.
  'src/lib/sbom.test.ts',
  // Every permission pair through every route that hands permissions out: 676 requests (the file
  // beside it, grant-rules.test.ts, asks each route once each way and stays).
  'src/lib/grant-rules-pairs.test.ts',
  // Hundreds of argon2 sign-ins to reach each throttle.
  'src/modules/auth/sign-in-throttle.test.ts',
  'src/modules/auth/throttle-burst.test.ts',
  // Signs in for every two-step case (78 s of a 2,279 s loaded run, the slowest file left).
  'src/modules/auth/mfa-routes.test.ts',
  // The fleet simulator against a served API.
  'src/modules/device-api/simulator.test.ts',
  // Build the whole demo data set.
  'src/demo/seed-demo.test.ts',
  'src/demo/subscriptions-seed.test.ts',
  // Tens of thousands of log rows, and 10,001 devices: the lists and the bulk limit at real size.
  'src/modules/logs/logs-list-volume.test.ts',
  'src/modules/devices/devices-bulk-limit.test.ts',
  // 1,203 devices, for pages read from the far end.
  'src/modules/devices/devices-list-deep.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default in a run is one worker fewer than the CPUs: a single worker on 2 cores, while
    // the main process mostly waits. Two keep both cores busy.
    maxWorkers: 2,
    // The forks pool (contract, API) keeps its workers from file to file: one module graph and one
    // pool of migrated databases per worker (src/test/pglite-pool.ts) instead of a new process, a new
    // import of the whole app and a new PGlite for every file. The threads pool (web) keeps its
    // threads the same way. Only the pool-wide setting decides whether a worker is reused; the
    // project setting below decides whether its modules are.
    poolOptions: { forks: { isolate: false }, threads: { isolate: false } },
    // A reused worker holds databases and the app's modules when it is stopped; on a loaded machine
    // stopping it can take longer than Vitest's 10 s default, which then fails a run that passed.
    teardownTimeout: 60_000,
    projects: [
      'packages/contract',
      'packages/fake-data',
      // Component files share a worker's window and dependencies, put back between files
      // (src/test/jsdom-environment.ts), and load the app's modules afresh (src/test/setup.ts):
      // a third less CPU than a VM context per file, which `npm test` keeps (decision 062).
      {
        extends: './apps/web/vitest.config.ts',
        root: './apps/web',
        test: {
          pool: 'threads',
          poolOptions: { threads: { isolate: false } },
          // Loaded with the app's modules, so that its list of toasts starts empty in every file.
          server: { deps: { inline: ['sonner'] } },
        },
      },
      {
        extends: './apps/api/vitest.config.ts',
        root: './apps/api',
        test: { exclude: slowApiFiles, poolOptions: { forks: { isolate: false } } },
      },
    ],
  },
});
