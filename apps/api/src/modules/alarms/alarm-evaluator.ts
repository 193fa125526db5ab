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
