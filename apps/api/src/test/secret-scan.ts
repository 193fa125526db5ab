import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { patients } from '../db/schema/devices.ts';

/*
 * The "no secret in the logs" check (docs/decisions/015). Every test app writes its server log
 * (pino, level info) to <dir>/pino-<id>.log and, at close, its audit rows to <dir>/rows-<id>.jsonl.
 * While it runs it notes every secret that passes through it in <dir>/secrets-<id>.txt: bearer
 * tokens, passwords, OTPs, reset and MFA tokens, TOTP secrets, recovery codes, card numbers. The
 * global teardown (secret-scan.global-setup.ts) greps every log and row file for every secret.
 */

/** Secrets shorter than this are not tracked: they would match ordinary text by chance. */
const minLength = 6;
/** Field names whose string values are secrets, in request bodies and in answers. */
const secretKey = /pass|otp|code|token|secret|card|cvc|recovery/i;
/** Fixed secrets every run uses: Stripe's test card numbers. */
export const knownSecrets = ['4242424242424242', '4000002500003155', '4000000000009995'];

export function collectSecrets(value: unknown, into: Set<string>, keyIsSecret = false, depth = 0): void {
  if (depth > 6 || value == null) return;
  if (typeof value === 'string') {
    // A short plain word ('account', 'verify') under a secret-looking key is a label, not a secret.
    const word = /^[A-Za-z]+$/.test(value) && value.length < 12;
    if (keyIsSecret && !word && value.length >= minLength && value.length <= 4096) into.add(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into, keyIsSecret, depth + 1);
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value))
      collectSecrets(item, into, keyIsSecret || secretKey.test(key), depth + 1);
  }
}

/** Hooks on a test app (before ready) that note every secret it sees. */
export function recordSecrets(app: FastifyInstance, file: string, fixed: string[]) {
  const seen = new Set<string>();
  const note = (found: Set<string>) => {
    const fresh = [...found].filter((s) => !seen.has(s) && !s.includes('\n'));
    for (const s of fresh) seen.add(s);
    if (fresh.length) appendFileSync(file, fresh.map((s) => `${s}\n`).join(''));
  };
  note(new Set([...fixed, ...knownSecrets].filter((s) => s.length >= minLength)));
  app.addHook('onRequest', async (request) => {
    const found = new Set<string>();
    const header = request.headers.authorization;
    if (typeof header === 'string') collectSecrets(header.replace(/^\w+\s+/, ''), found, true);
    collectSecrets(request.query, found);
    note(found);
  });
  app.addHook('preHandler', async (request) => {
    const found = new Set<string>();
    collectSecrets(request.body, found);
    note(found);
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    // The API document is public text with no secret in it; its path keys (".../recovery-codes")
    // would otherwise mark every description and tag under them as a secret.
    if (request.url.startsWith('/api/docs')) return payload;
    if (typeof payload === 'string' && payload.length < 100_000 && payload.startsWith('{')) {
      const found = new Set<string>();
      try {
        collectSecrets(JSON.parse(payload), found);
      } catch {
        // Not JSON.
      }
      note(found);
    }
    return payload;
  });
}

/**
 * At a test app's close: the names and emails of the patients in its database (the demo data set's,
 * and those tests made) are health data, noted in `personal-<id>.txt` and checked against the
 * server log only: an audit row rightly names the user who signed in, and the demo data has
 * patients signing in on machines under those names and emails.
 */
export async function recordPatients(db: Db, dir: string, runId: string) {
  const rows = await db.select({ name: patients.patientname, email: patients.email }).from(patients);
  const write = (file: string, values: string[]) => {
    const found = new Set<string>();
    for (const value of values) collectSecrets(value, found, true);
    if (found.size) appendFileSync(path.join(dir, file), [...found].map((s) => `${s}\n`).join(''));
  };
  write(
    `personal-${runId}.txt`,
    rows.flatMap((r) => [r.name, r.email]),
  );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A secret of digits only (an OTP) must stand alone: not inside a longer number (a timestamp, a
 * duration) nor inside a word or hex string (a request id's UUID, "…-957635ed…", held one by chance).
 */
const matcher = (secret: string) =>
  /^\d+$/.test(secret) ? new RegExp(`(?<![\\dA-Za-z.])${secret}(?![\\dA-Za-z])`) : new RegExp(escape(secret));

export type SecretHit = { file: string; line: number; secret: string };

/** Every place in the run's log and row files where a noted secret appears. */
export function scanForSecrets(dir: string): { hits: SecretHit[]; secrets: number; files: number } {
  const names = readdirSync(dir);
  const read = (prefix: string) => {
    const found = new Set<string>();
    for (const name of names.filter((n) => n.startsWith(prefix)))
      for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) if (line) found.add(line);
    return [...found].map((secret) => ({ secret, re: matcher(secret) }));
  };
  const secrets = read('secrets-');
  // Personal data (patients' emails): never in the server log; an audit row may name a user.
  const personal = read('personal-');
  const hits: SecretHit[] = [];
  const scanned = names.filter((n) => n.startsWith('pino-') || n.startsWith('rows-'));
  const withPersonal = byPrefix([...secrets, ...personal]);
  const secretsOnly = byPrefix(secrets);
  for (const name of scanned) {
    const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
    const checks = name.startsWith('pino-') ? withPersonal : secretsOnly;
    lines.forEach((text, i) => {
      for (const { secret, re } of candidates(text, checks))
        if (re.test(text)) hits.push({ file: name, line: i + 1, secret });
    });
  }
  return { hits, secrets: secrets.length + personal.length, files: scanned.length };
}

type Check = { secret: string; re: RegExp };

/** The checks by their secret's first `minLength` characters, which every match must contain. */
function byPrefix(checks: Check[]): Map<string, Check[]> {
  const map = new Map<string, Check[]>();
  for (const check of checks) {
    const key = check.secret.slice(0, minLength);
    const same = map.get(key);
    if (same) same.push(check);
    else map.set(key, [check]);
  }
  return map;
}

/**
 * The checks whose prefix occurs in `text`, found by one look-up per position of the line: testing
 * every secret against every line cost about 10 s at the end of each API run (2,400 secrets,
 * 200 files), longer than any test file.
 */
function candidates(text: string, checks: Map<string, Check[]>): Set<Check> {
  const found = new Set<Check>();
  for (let i = 0; i + minLength <= text.length; i++)
    for (const check of checks.get(text.slice(i, i + minLength)) ?? []) found.add(check);
  return found;
}
