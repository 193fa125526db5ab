import { writeHardeningResult } from './result-file.ts';

/** What the fuzz suite counts as it goes. */
export const newFuzzTally = () => ({
  cases: 0,
  s2xx: 0,
  s4xx: 0,
  s5xx: 0,
  other: 0,
  badEnvelope: 0,
  reSignIns: 0,
  invariantRuns: 0,
  invariantQueries: 0,
  routesDone: 0,
  auditLost: 0,
});

type FuzzRun = {
  passed: boolean;
  onPostgres: boolean;
  /** Routes in the OpenAPI document. */
  operations: number;
  runsPerRoute: number;
  seed: number;
  tally: ReturnType<typeof newFuzzTally>;
  problems: string[];
  /** The seeded admin still signs in, its security columns unchanged. */
  signedIn: boolean;
  /** CPU time of the whole run (this process). */
  cpuSeconds: number;
  cpuByRoute: Map<string, number>;
};

/** The fuzz suite's result file (one for the embedded database, one for PostgreSQL). */
export function writeFuzzResult(run: FuzzRun) {
  writeHardeningResult({
    // The suite runs on the embedded database and, in CI, again on PostgreSQL: one result each.
    suite: run.onPostgres ? 'fuzz-postgres' : 'fuzz',
    title: `Fuzz: every route of the OpenAPI document${run.onPostgres ? ', on PostgreSQL' : ''}`,
    passed: run.passed,
    figures: [
      { name: 'Routes in the OpenAPI document', value: run.operations },
      { name: 'Routes fuzzed', value: run.tally.routesDone, target: 'all' },
      { name: 'Cases per route', value: run.runsPerRoute, target: '≥ 200 in CI' },
      { name: 'Cases tried', value: run.tally.cases },
      { name: '2xx answers', value: run.tally.s2xx },
      {
        name: '4xx answers with a { code, msg, data } envelope',
        value: run.tally.s4xx - run.tally.badEnvelope,
      },
      { name: '4xx answers without an envelope or msg', value: run.tally.badEnvelope, target: '0' },
      { name: '5xx answers', value: run.tally.s5xx, target: '0' },
      { name: 'Other answers (1xx, 3xx)', value: run.tally.other, target: '0' },
      { name: 'Invariant checks (after every route and at the end)', value: run.tally.invariantRuns },
      { name: 'Invariant queries run', value: run.tally.invariantQueries },
      {
        name: 'Invariant violations',
        value: run.problems.filter((p) => p.startsWith('after ')).length,
        target: '0',
      },
      {
        name: 'Audit rows lost or left unwritten (checked after every route)',
        value: run.tally.auditLost,
        target: '0',
      },
      {
        name: 'Admin still signs in, its security columns unchanged',
        value: run.signedIn ? 'yes' : 'no',
        target: 'yes',
      },
      { name: 'Admin sessions ended by a fuzz case (signed in again)', value: run.tally.reSignIns },
      { name: 'CPU time of the run (this process)', value: Math.round(run.cpuSeconds), unit: 's' },
      { name: 'Seed', value: String(run.seed) },
    ],
    notes: [
      "Cases: values from each field's JSON schema, its boundaries (min/max length and range, one past them), wrong types, missing required and unknown extra fields, 1 MiB strings, unicode (RTL override, emoji, NUL, lone surrogates), SQL- and HTML-looking strings, path parameters of every shape; as the admin (the clinic portal's routes as a clinic manager under row-level security, the machines' as a machine), anonymously and with forged tokens (wrong key, alg none).",
      'Routes without a JSON body schema (multipart uploads, the raw Stripe webhook) get random multipart bodies (fields, files, hostile file names, broken boundaries) and random non-multipart bodies.',
      'Invariants: device and log counters equal real counts, device subscription status mirrors the latest subscription, no orphan users/sessions/patients/records, no duplicate e-mail or user name, stored files exist for their rows, the seeded admin still signs in and its id, e-mail, password hash, role and deletability are unchanged.',
      `Most expensive routes (CPU s for all their cases): ${[...run.cpuByRoute]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([r, s]) => `${r} ${s.toFixed(1)}`)
        .join('; ')}.`,
      ...run.problems.slice(0, 20).map((p) => `Problem: ${p.slice(0, 400)}`),
    ],
  });
}
