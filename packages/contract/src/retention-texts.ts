import { formatCount } from './count-format.ts';

/*
 * Retention (issue 38 item 3, decision 086): the record types, paths and the console's texts, free
 * of zod (the sidebar reads the screen's path). The schemas and the API's messages: retention.ts.
 */

/** Every record type of the schedule, in the order the console lists them. */
export const retentionRecordTypes = [
  'treatmentRecords',
  'patientData',
  'logs',
  'auditTrail',
  'mail',
  'sessions',
  'enrolmentCodes',
  'passwordResets',
  'paymentEvents',
] as const;
export type RetentionRecordType = (typeof retentionRecordTypes)[number];

export const retentionRecordTypeLabels: Record<RetentionRecordType, string> = {
  treatmentRecords: 'Treatment records',
  patientData: 'Patient data',
  logs: 'Access and error logs',
  auditTrail: 'Audit trail (change history)',
  mail: 'Mail outbox',
  sessions: 'Sessions',
  enrolmentCodes: 'Enrolment codes',
  passwordResets: 'Password resets',
  paymentEvents: 'Payment events',
};

/** What happens to a row past its period. */
export const retentionActions = ['delete', 'anonymise'] as const;
export type RetentionAction = (typeof retentionActions)[number];
export const retentionActionLabels: Record<RetentionAction, string> = {
  delete: 'Deleted',
  anonymise: 'Anonymised',
};

/**
 * What a legal hold is placed on. A machine stands for its clinic until customers exist (a later
 * issue adds 'customer' here and the rules that follow it).
 */
export const legalHoldSubjectKinds = ['patient', 'device'] as const;
export type LegalHoldSubjectKind = (typeof legalHoldSubjectKinds)[number];
export const legalHoldSubjectLabels: Record<LegalHoldSubjectKind, string> = {
  patient: 'Patient',
  device: 'Machine (and all its patients)',
};

export const legalHoldStates = ['active', 'lifted'] as const;

export const retentionPaths = {
  schedule: '/api/v1/admin/retention/schedule',
  runs: '/api/v1/admin/retention/runs',
  holds: '/api/v1/admin/legal-holds',
  lift: (id: string) => `/api/v1/admin/legal-holds/${id}/lift`,
} as const;

export const retentionScreenPath = '/admin/retention';

export const retentionTexts = {
  title: 'Retention',
  intro:
    'How long each kind of record is kept, and what happens to it after. A daily run removes what is past its period, except what a legal hold keeps; each run is written to the audit trail.',
  scheduleTitle: 'Schedule',
  runsTitle: 'Last runs',
  holdsTitle: 'Legal holds',
  emptyRuns: 'No retention run yet.',
  emptyHolds: 'No legal hold.',
  noOverrides: 'None',
  healthMinimum: (years: number) => `Health data is never kept for less than ${years} years.`,
  placeHold: 'Place legal hold',
  placeHoldTitle: 'Place a legal hold',
  placeHoldIntro:
    'Nothing of the subject is removed by retention while the hold is in force: a patient keeps their record, treatments and history; a machine keeps all its patients, treatments and log rows.',
  subjectKindLabel: 'Held',
  subjectIdLabel: 'Patient or machine id',
  subjectIdHint: "The id shown in the patient's or machine's page address.",
  reasonLabel: 'Reason',
  reasonHint: 'The matter, claim or request the records are held for. Kept with your name and the time.',
  lift: 'Lift',
  liftTitle: 'Lift the legal hold',
  liftReasonLabel: 'Why is the hold lifted?',
  liftIntro: (subject: string) =>
    `Once lifted, ${subject} is subject to the retention schedule again at the next run.`,
  active: 'In force',
  lifted: 'Lifted',
} as const;

/**
 * A retention run's audit row (`RETENTION run: treatmentRecords 3, logs 0, ...`, decision 086) in
 * words for Admin Logs: the types with rows removed only; null for any other row.
 */
export function retentionRunInWords(resource: string): string | null {
  const run = /^RETENTION run: (.*)$/.exec(resource);
  if (!run) return null;
  const removed = run[1]!
    .split(', ')
    .map((pair) => pair.split(' ') as [RetentionRecordType, string])
    .filter(([type, n]) => type in retentionRecordTypeLabels && Number(n) > 0)
    .map(([type, n]) => `${retentionRecordTypeLabels[type].toLowerCase()} ${formatCount(Number(n))}`);
  return removed.length
    ? `Retention run removed ${removed.join(', ')}`
    : 'Retention run: nothing was past its period';
}
