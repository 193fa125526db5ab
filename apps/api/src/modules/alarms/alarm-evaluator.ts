import type { FastifyBaseLogger } from 'fastify';
import { alarmRules, type AlarmRule } from '@app/contract/alarms';
import type { AlarmsConfig } from '#api/config-alarms.ts';
import type { Db } from '#api/db/client.ts';
import { rowsOf } from '#api/db/rows-of.ts';
import { checkRule, ruleConditions } from './alarm-rules.ts';

export type RuleOutcome = { opened: number; cleared: number };

/** Checks every rule over the fleet: opens what newly holds, resolves what cleared (alarm-rules.ts). */
export function createAlarmEvaluator({
  db,
  now,
  offlineMinutes,
  config,
  minimumSupportedVersion,
}: {
  db: Db;
  now: () => Date;
  offlineMinutes: number;
  config: Pick<AlarmsConfig, 'offlineHours' | 'errorBurst'>;
  /** app-updates/minimum-supported-version.ts */
  minimumSupportedVersion: () => Promise<number | null>;
}) {
  return async function evaluate(): Promise<Record<AlarmRule, RuleOutcome>> {
    const at = now();
    const inputs = {
      at,
      offlineMinutes,
      offlineHours: config.offlineHours,
      errorBurst: config.errorBurst,
      minimum: await minimumSupportedVersion(),
    };
    const outcome = {} as Record<AlarmRule, RuleOutcome>;
    // One rule at a time: each is its own statement, so a slow one never holds the others' locks.
    for (const rule of alarmRules) {
      const [row] = rowsOf(await db.execute(checkRule(rule, ruleConditions[rule](inputs), at)));
      outcome[rule] = { opened: Number(row?.opened ?? 0), cleared: Number(row?.cleared ?? 0) };
    }
    return outcome;
  };
}

/**
 * Runs `job` once at start and then every `seconds` until stopped, never two at once; the timer
 * never keeps the process alive, and stopping waits for a run under way (the database is closed next).
 */
export function startPeriodicJob({
  seconds,
  job,
  log,
  name,
}: {
  seconds: number;
  job: () => Promise<unknown>;
  log: Pick<FastifyBaseLogger, 'error'>;
  name: string;
}): () => Promise<void> {
  if (seconds <= 0) return async () => {};
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = job()
      .then(() => undefined)
      .catch((error: unknown) =>
        log.error({ err: error instanceof Error ? error.message : String(error) }, `${name} failed`),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, 0);
  first.unref();
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
