// `npm audit --omit=dev`, minus the advisories recorded with a reason in audit-allowlist.json
// ([{ "id": "GHSA-xxxx-xxxx-xxxx", "reason": "why it does not apply to us" }]). Prints what remains
// and exits 1 if anything does. An audit that cannot be run (registry unreachable, bad answer) is a
// failure too, said loudly: a check that silently passes offline checks nothing. The one exception
// is a registry that does not offer audits at all (405): reported as not run, counted neither way.
//
//   node scripts/audit-check.mjs [--report saved-audit.json] [--result counts.json]
//
// --report reads a saved `npm audit --json` answer instead of asking the registry; --result writes
// { passed, failed } for scripts/test-all.mjs.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const resultFile = arg('--result');

function finish(ok, lines) {
  for (const line of lines) (ok ? console.log : console.error)(line);
  if (resultFile) writeFileSync(resultFile, JSON.stringify({ passed: ok ? 1 : 0, failed: ok ? 0 : 1 }));
  process.exit(ok ? 0 : 1);
}

function notRun(lines) {
  for (const line of lines) console.error(line);
  if (resultFile) writeFileSync(resultFile, JSON.stringify({ passed: 0, failed: 0 }));
  process.exit(0);
}

function readAllowlist() {
  const file = path.join(root, 'audit-allowlist.json');
  let entries;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    finish(false, [`audit: cannot read ${file}: ${error.message}`]);
  }
  if (!Array.isArray(entries)) finish(false, ['audit: audit-allowlist.json must be an array']);
  const bad = entries.filter(
    (e) => typeof e?.id !== 'string' || typeof e?.reason !== 'string' || e.reason.trim().length < 10,
  );
  if (bad.length)
    finish(false, [
      'audit: every allow-list entry needs an "id" and a "reason" (a sentence on why it does not apply):',
      ...bad.map((e) => `  ${JSON.stringify(e)}`),
    ]);
  return new Map(entries.map((e) => [e.id.toUpperCase(), e.reason]));
}

function readReport() {
  const saved = arg('--report');
  let raw;
  if (saved) raw = readFileSync(saved, 'utf8');
  else {
    const res = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (res.error) finish(false, [`audit: could not run npm audit: ${res.error.message}`]);
    raw = res.stdout;
    // npm audit exits 1 when it finds something; only an answer we cannot read is an error here.
    if (!raw.trim()) finish(false, ['audit: npm audit gave no answer', res.stderr.trim()]);
  }
  let report;
  try {
    report = JSON.parse(raw);
  } catch {
    finish(false, ['audit: npm audit did not answer JSON:', raw.slice(0, 2000)]);
  }
  // A registry (or mirror) that does not serve npm's audit endpoint answers 405: nothing can be
  // checked, and that is said as loudly as a failure, but counted as neither pass nor fail.
  if (/\b405 Method Not Allowed\b/.test(String(report.message ?? '')))
    notRun([
      'audit: NOT RUN: this registry does not serve the audit endpoint (405 Method Not Allowed).',
      '  Nothing was checked. Run `node scripts/audit-check.mjs` where the public npm registry answers.',
    ]);
  if (report.error || report.statusCode || report.message)
    finish(false, [
      'audit: npm audit FAILED, the registry could not be asked (no result is not a pass):',
      ...[report.message, report.error?.code, report.error?.summary, report.error?.detail]
        .filter((v) => typeof v === 'string' && v.trim())
        .map((v) => `  ${v.trim()}`),
    ]);
  if (typeof report.vulnerabilities !== 'object' || report.vulnerabilities === null)
    finish(false, ['audit: unexpected npm audit answer (no "vulnerabilities")', raw.slice(0, 2000)]);
  return report;
}

/** Each advisory once: its GHSA id (from the URL), the packages it reaches, severity and title. */
function advisoriesOf(report) {
  const found = new Map();
  for (const vulnerability of Object.values(report.vulnerabilities)) {
    for (const via of vulnerability.via ?? []) {
      // A string names another vulnerable package; its own entry lists the advisory.
      if (typeof via !== 'object' || via === null) continue;
      const ghsa = /GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}/i.exec(via.url ?? '')?.[0]?.toUpperCase();
      const id = ghsa ?? String(via.source);
      const entry = found.get(id) ?? {
        id,
        source: String(via.source),
        severity: via.severity,
        title: via.title,
        url: via.url,
        packages: new Set(),
      };
      entry.packages.add(`${via.name ?? vulnerability.name}@${via.range ?? '?'}`);
      found.set(id, entry);
    }
  }
  return [...found.values()];
}

const allowed = readAllowlist();
const advisories = advisoriesOf(readReport());
const isAllowed = (a) => allowed.has(a.id) || allowed.has(a.source);
const remaining = advisories.filter((a) => !isAllowed(a));
const describe = (a) => `  ${a.id} (${a.severity}) ${a.title} — ${[...a.packages].join(', ')} ${a.url ?? ''}`;
const lines = [];
for (const a of advisories.filter(isAllowed))
  lines.push(`allowed: ${a.id} ${a.title} — ${allowed.get(a.id) ?? allowed.get(a.source)}`);
if (remaining.length === 0) {
  lines.push(`audit: no advisories outside the allow-list (${advisories.length} found, all allowed)`);
  finish(true, lines);
}
finish(false, [
  ...lines,
  `audit: ${remaining.length} advisor${remaining.length === 1 ? 'y' : 'ies'} in production dependencies, not in audit-allowlist.json:`,
  ...remaining.map(describe),
  'Upgrade the package, or record the advisory in audit-allowlist.json with the reason it does not apply.',
]);
