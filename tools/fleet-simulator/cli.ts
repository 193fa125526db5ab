import { parseArgs } from 'node:util';
import { runFleet, summaryLine, type FleetSummary } from './fleet.ts';
import { createProgress, silentProgress } from './progress.ts';

/*
 * npm run simulate -- --url URL --admin-email E --admin-password P --devices N --minutes M
 * Progress goes to stderr; stdout gets exactly one line (the summary). Exit 0 when every accepted
 * record is in the console exactly once and nothing unexpected happened, 1 otherwise.
 */

const usage = `Usage: npm run simulate -- --url URL --admin-email EMAIL --admin-password PASSWORD [options]

  --url URL              the API server (e.g. http://127.0.0.1:3000)
  --admin-email EMAIL    an admin of the console (provisions the machines and technicians)
  --admin-password PASS  (or the env variable SIMULATE_ADMIN_PASSWORD)
  --devices N            machines to simulate (default 5)
  --minutes M            how long they run, may be fractional (default 1)
  --concurrency C        machines working at once (default 12)
  --seed S               seed of the fake data (default 13)
  --issuer URL           the server's PUBLIC_URL, which its licences name (default: --url)
  --command-failures P   share of non-disruptive commands that fail on purpose, 0 to 1 (default 0.05)
  --no-long-poll         take commands from heartbeats only, not also by long-poll between turns
  --quiet                no progress output

While it runs, each machine runs the commands an admin sends it from the console (Device Details),
as the app does (docs/device-api.md §4c): sync-now, upload-diagnostics, restart-app, safety-hold
(it refuses treatments, logging why), release-hold and re-enrol (it gets a new code with the admin
sign-in above). Each runs once by its id; a few fail on purpose ("storage busy, try again").
`;

function fail(message: string): never {
  process.stderr.write(`simulate: ${message}\n`);
  process.exit(1);
}

function positive(name: string, value: string | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    fail(`--${name} must be a positive ${integer ? 'whole ' : ''}number, not "${value}"\n\n${usage}`);
  return n;
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        'admin-email': { type: 'string' },
        'admin-password': { type: 'string' },
        devices: { type: 'string' },
        minutes: { type: 'string' },
        concurrency: { type: 'string' },
        seed: { type: 'string' },
        issuer: { type: 'string' },
        'command-failures': { type: 'string' },
        'no-long-poll': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n\n${usage}`);
  }
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const url = values.url;
  const adminEmail = values['admin-email'];
  const adminPassword = values['admin-password'] ?? process.env.SIMULATE_ADMIN_PASSWORD;
  if (!url || !adminEmail || !adminPassword)
    fail(`--url, --admin-email and --admin-password are required\n\n${usage}`);
  try {
    new URL(url);
  } catch {
    fail(`--url must be an address like http://127.0.0.1:3000, not "${url}"`);
  }
  const devices = positive('devices', values.devices, 5, true);
  const minutes = positive('minutes', values.minutes, 1, false);
  const concurrency = positive('concurrency', values.concurrency, 12, true);
  const seed = positive('seed', values.seed, 13, true);
  const failures = values['command-failures'];
  const commandFailShare = failures === undefined ? 0.05 : Number(failures);
  if (!(commandFailShare >= 0 && commandFailShare <= 1))
    fail(`--command-failures must be a share from 0 to 1, not "${failures}"\n\n${usage}`);

  // Unreachable or not our API: say so in one line before any provisioning.
  try {
    const res = await fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) fail(`${url} answered ${res.status} on /api/health: is the API up and ready?`);
  } catch (err) {
    fail(
      `cannot reach ${url}: ${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message}`,
    );
  }

  let summary: FleetSummary;
  try {
    summary = await runFleet({
      url,
      adminEmail,
      adminPassword,
      devices,
      minutes,
      concurrency,
      seed,
      issuer: values.issuer,
      commandFailShare,
      longPoll: !values['no-long-poll'],
      progress: values.quiet ? silentProgress : createProgress(),
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const { surprises, http } = summary;
  if (surprises.length > 0) {
    process.stderr.write(`${surprises.length} problem(s):\n`);
    for (const s of surprises.slice(0, 20)) process.stderr.write(`  ${s}\n`);
    if (surprises.length > 20) process.stderr.write(`  ... and ${surprises.length - 20} more\n`);
  }
  if (!values.quiet)
    process.stderr.write(
      `${summary.heartbeats} heartbeats, ${summary.resent} items re-sent on purpose (${summary.resentSame} answered as before), ` +
        `${summary.refusedStarts} treatment starts refused by a licence, ${summary.heldStarts} by a safety hold, ` +
        `${summary.commandsRun} commands run (${summary.commandsFailed} failed), ` +
        `${http.requests} requests, ${http.retries} retried, ${http.throttled} throttled\n`,
    );
  process.stdout.write(`${summaryLine(summary)}\n`);
  process.exitCode = summary.duplicates > 0 || summary.missing > 0 || surprises.length > 0 ? 1 : 0;
}

await main();
