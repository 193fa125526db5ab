import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Report = {
  machine: { cpus: number; loadAtStart: number; loadAtEnd: number };
  settings: Record<string, number>;
  figures: Record<string, number>;
  checks: [string, number, boolean][];
  rounds: Record<string, number>[];
};

/** bench/results/commands-<date>.{json,md}: the figures, each target met or not, and the references. */
export function writeCommandsReport(dir: string, report: Report) {
  const date = new Date().toISOString().slice(0, 10);
  const { machine, settings: s, figures: f } = report;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `commands-${date}.json`), `${JSON.stringify({ date, ...report }, null, 2)}\n`);
  writeFileSync(
    path.join(dir, `commands-${date}.md`),
    [
      `# Remote commands at fleet scale (${date})`,
      '',
      `\`npm run bench:commands\` on ${machine.cpus} cores shared by the API, PostgreSQL and the load generator: 1-minute load average ${machine.loadAtStart.toFixed(1)} at start, ${machine.loadAtEnd.toFixed(1)} at the end. ${s.groupSize! + s.others!} machines written in SQL in ${s.provisionSeconds} s, ${s.pendingUsed! + s.others!} of them checked in once before timing; heartbeats: median of ${s.rounds} rounds of ${s.seconds} s at 1,000/s, the two loads side by side.`,
      '',
      '| target | figure | |',
      '|---|---:|---|',
      ...report.checks.map(([what, value, met]) => `| ${what} | ${value} | ${met ? 'met' : 'not met'} |`),
      '',
      `References in the same run: the same ${s.groupSize} rows by a plain INSERT ... SELECT ${f.referenceSeconds} s; the profile read p95 ${f.profileP95Ms} ms; heartbeat p99 ${f.pendingP99Ms} ms with a command pending, ${f.noneP99Ms} ms with none; a command reached a waiting machine in ${f.reachMedianMs} ms (median of 100).`,
      '',
    ].join('\n'),
  );
}
