import { z } from 'zod';
import { idParamSchema } from './devices.ts';
import { envelope } from './envelope.ts';
import { pageQuery, strictObject } from './fields.ts';

/*
 * Device health alarms (issue 16 item 1, decision 049): rules the server evaluates over the fleet,
 * at most one open alarm per machine and rule, acknowledged and resolved by an admin or resolved
 * by itself when its condition clears.
 */

export const alarmRules = [
  'offline',
  'app-version',
  'error-burst',
  'revoked-calls',
  'licence-grace',
] as const;
export type AlarmRule = (typeof alarmRules)[number];

export const alarmRuleLabels: Record<AlarmRule, string> = {
  offline: 'Offline too long',
  'app-version': 'App version below minimum',
  'error-burst': 'Error-log burst',
  'revoked-calls': 'Revoked but still calling',
  'licence-grace': 'Licence in grace',
};

/** Open: not resolved yet (acknowledged or not). Past: resolved, by an admin or by itself. */
export const alarmStates = ['open', 'past'] as const;
export type AlarmState = (typeof alarmStates)[number];
export const alarmStateLabels: Record<AlarmState, string> = { open: 'Open', past: 'Past' };

export const alarmMessages = {
  notFound: 'Alarm not found',
  invalidId: 'Invalid alarm id',
  acknowledged: 'Alarm acknowledged',
  resolved: 'Alarm resolved',
  alreadyAcknowledged: 'This alarm is already acknowledged',
  alreadyResolved: 'This alarm is already resolved',
  stateInvalid: 'state must be open or past',
  ruleInvalid: `rule must be one of ${alarmRules.join(', ')}`,
  enabledInvalid: 'enabled must be true or false',
  digestOn: 'Daily alarm digest turned on',
  digestOff: 'Daily alarm digest turned off',
} as const;

/** The console's texts of the Alarms screen, the bell and the digest setting. */
export const alarmTexts = {
  title: 'Alarms',
  emptyOpen: 'No open alarms.',
  emptyPast: 'No past alarms.',
  acknowledge: 'Acknowledge',
  resolve: 'Resolve',
  history: 'History',
  acknowledging: 'Acknowledging...',
  resolving: 'Resolving...',
  resolvedByItself: 'By itself',
  allRules: 'All rules',
  acknowledgeTitle: 'Acknowledge alarm',
  resolveTitle: 'Resolve alarm',
  acknowledgeText: (machine: string, rule: AlarmRule) =>
    `Acknowledge "${alarmRuleLabels[rule]}" on ${machine}? It stays open until it clears or is resolved.`,
  resolveText: (machine: string, rule: AlarmRule) =>
    `Resolve "${alarmRuleLabels[rule]}" on ${machine}? If the condition still holds, the next check opens a new alarm.`,
  bell: (open: number) => (open === 1 ? '1 open alarm' : `${open} open alarms`),
  digestTitle: 'Alarm digest',
  digestLabel: 'Email me a daily digest of the open alarms',
  digestHelp: 'Sent once a day while alarms are open; nothing is sent on a day without any.',
} as const;

export const alarmStatusLabels = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  cleared: 'Cleared',
} as const;
export type AlarmStatus = keyof typeof alarmStatusLabels;

/** What the rule saw when it opened the alarm; which fields are set depends on the rule. */
export const alarmDetailSchema = z.object({
  /** offline: the machine's last call. */
  lastSeenAt: z.string().optional(),
  /** app-version: what the machine runs, and the minimum supported then. */
  versionCode: z.number().int().optional(),
  minimum: z.number().int().optional(),
  /** error-burst: error logs the machine sent for the last hour, and the most allowed. */
  errors: z.number().int().optional(),
  threshold: z.number().int().optional(),
  /** revoked-calls: the latest call made with a revoked credential. */
  lastCallAt: z.string().optional(),
  /** licence-grace (issue 34): the licence's paid-through date and the end of its grace. */
  paidThrough: z.string().optional(),
  graceUntil: z.string().optional(),
});
export type AlarmDetail = z.infer<typeof alarmDetailSchema>;

export const alarmSchema = z.object({
  _id: z.string(),
  deviceId: z.string(),
  machineNumber: z.string(),
  serialNumber: z.string(),
  rule: z.enum(alarmRules),
  detail: alarmDetailSchema,
  openedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  /** The admin's email at the time. */
  acknowledgedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** The admin's email; null with a resolvedAt when the alarm resolved by itself. */
  resolvedBy: z.string().nullable(),
});
export type Alarm = z.infer<typeof alarmSchema>;

export const alarmStatusOf = (a: Pick<Alarm, 'acknowledgedAt' | 'resolvedAt' | 'resolvedBy'>): AlarmStatus =>
  a.resolvedAt ? (a.resolvedBy ? 'resolved' : 'cleared') : a.acknowledgedAt ? 'acknowledged' : 'open';

/** What the alarm is about, in words; times through the caller's formatter (the admin's time zone, or UTC in mail). */
export function alarmDetailText(
  { rule, detail }: Pick<Alarm, 'rule' | 'detail'>,
  formatTime: (iso: string) => string,
): string {
  const time = (iso: string | undefined) => (iso ? formatTime(iso) : 'an unknown time');
  switch (rule) {
    case 'offline':
      return `Quiet since ${time(detail.lastSeenAt)}`;
    case 'app-version':
      return `Runs version ${detail.versionCode ?? '?'}; the minimum supported is ${detail.minimum ?? '?'}`;
    case 'error-burst':
      return `${detail.errors ?? '?'} error logs within an hour (more than ${detail.threshold ?? '?'})`;
    case 'revoked-calls':
      return `Still calls with a revoked credential, last at ${time(detail.lastCallAt)}`;
    case 'licence-grace':
      return `Paid through ${time(detail.paidThrough)}; lapses at ${time(detail.graceUntil)} unless paid`;
  }
}

/** Why an alarm resolved by itself: the rule's condition no longer held at a check. */
const clearedTexts: Record<AlarmRule, (detail: AlarmDetail) => string> = {
  offline: () => 'the machine called again, or is no longer an active, enrolled machine',
  'app-version': () => 'the machine reports a supported version, or the minimum changed',
  'error-burst': (d) =>
    `no more than ${d.threshold ?? 'the allowed number of'} error logs within the last hour`,
  'revoked-calls': () => 'no call with a revoked credential lately',
  'licence-grace': () => 'the licence left grace (paid, exempted or lapsed)',
};

export type AlarmEvent = { at: string; text: string };

/** The alarm's history, oldest first: opened, acknowledged, resolved (by whom) or cleared (why). */
export function alarmHistory(alarm: Alarm, formatTime: (iso: string) => string): AlarmEvent[] {
  const events: AlarmEvent[] = [
    { at: alarm.openedAt, text: `Opened: ${alarmDetailText(alarm, formatTime)}` },
  ];
  if (alarm.acknowledgedAt)
    events.push({ at: alarm.acknowledgedAt, text: `Acknowledged by ${alarm.acknowledgedBy ?? 'an admin'}` });
  if (alarm.resolvedAt)
    events.push({
      at: alarm.resolvedAt,
      text: alarm.resolvedBy
        ? `Resolved by ${alarm.resolvedBy}`
        : `Resolved by itself: ${clearedTexts[alarm.rule](alarm.detail)}`,
    });
  return events;
}

/** GET alarms: open (default) or past, one rule or all, a search over the machine's number, serial and place. */
export const alarmListQuerySchema = pageQuery.extend({
  state: z.enum(alarmStates, { error: alarmMessages.stateInvalid }).default('open'),
  rule: z.enum(alarmRules, { error: alarmMessages.ruleInvalid }).optional(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});

export const alarmListSchema = z.object({
  alarms: z.array(alarmSchema),
  totalPages: z.number().int(),
  /** Exact without a rule or search; with one, counted up to alarmCountCap. */
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AlarmList = z.infer<typeof alarmListSchema>;

/** A filtered list counts its matches up to this many (architecture.md §8: no unbounded count per request). */
export const alarmCountCap = 10_000;

export const alarmCountSchema = z.object({ open: z.number().int() });
export type AlarmCount = z.infer<typeof alarmCountSchema>;

export const alarmIdParamSchema = idParamSchema(alarmMessages.invalidId);

/** The signed-in admin's daily digest setting. */
export const alarmDigestSchema = z.object({ enabled: z.boolean() });
export type AlarmDigest = z.infer<typeof alarmDigestSchema>;
export const alarmDigestBodySchema = strictObject({
  enabled: z.boolean({ error: alarmMessages.enabledInvalid }),
});

export const alarmResponseSchema = envelope(alarmSchema);
export const alarmListResponseSchema = envelope(alarmListSchema);
export const alarmCountResponseSchema = envelope(alarmCountSchema);
export const alarmDigestResponseSchema = envelope(alarmDigestSchema);
