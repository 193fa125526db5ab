/*
 * Field safety notices (issue 38 item 6, decision 084; EU MDR Art. 87-89, MHRA guidance): the paths,
 * kinds, states and the console's texts, kept free of zod so the public acknowledgement page and the
 * sidebar load little. The schemas and the API's messages are in safety-notices.ts.
 */

const admin = '/api/v1/admin/safety-notices';

/** The module's own API paths (a module's paths live in its contract, decision 067). */
export const safetyNoticePaths = {
  list: admin,
  notice: (id: string) => `${admin}/${id}`,
  /** Draft: the machines its selection matches now. */
  preview: (id: string) => `${admin}/${id}/preview`,
  send: (id: string) => `${admin}/${id}/send`,
  /** Sent: the frozen set, per machine notified / acknowledged / remedied, with counts. */
  machines: (id: string) => `${admin}/${id}/machines`,
  export: (id: string) => `${admin}/${id}/export`,
  /** Public (the link in the clinic's mail): GET reads the notice, POST acknowledges it. */
  acknowledgement: (token: string) => `/api/v1/safety-notice-ack/${token}`,
} as const;

/** The console's screen, and the public page the mail links to (no sign-in). */
export const safetyNoticesScreenPath = '/admin/safety-notices';
export const acknowledgementPagePath = (token: string) => `/safety-notice/${token}`;

export const safetyNoticeKinds = ['advisory', 'corrective-action', 'recall'] as const;
export type SafetyNoticeKind = (typeof safetyNoticeKinds)[number];
export const safetyNoticeKindLabels: Record<SafetyNoticeKind, string> = {
  advisory: 'Advisory notice',
  'corrective-action': 'Field safety corrective action',
  recall: 'Recall',
};

export const safetyNoticeStates = ['draft', 'sent'] as const;
export type SafetyNoticeState = (typeof safetyNoticeStates)[number];
export const safetyNoticeStateLabels: Record<SafetyNoticeState, string> = {
  draft: 'Draft',
  sent: 'Sent',
};

/** What fixes the machines: a release of the app (its rollout) or a command batch. */
export const remedyKinds = ['app-update', 'command-batch'] as const;
export type RemedyKind = (typeof remedyKinds)[number];
export const remedyKindLabels: Record<RemedyKind, string> = {
  'app-update': 'App update',
  'command-batch': 'Command batch',
};

/** The status view's filters: a machine is acknowledged, else notified, else without contact. */
export const noticeMachineFilters = [
  'notified',
  'acknowledged',
  'no-contact',
  'remedied',
  'not-remedied',
] as const;
export type NoticeMachineFilter = (typeof noticeMachineFilters)[number];
export const noticeMachineFilterLabels: Record<NoticeMachineFilter, string> = {
  notified: 'Notified, not acknowledged',
  acknowledged: 'Acknowledged',
  'no-contact': 'No contact',
  remedied: 'Remedied',
  'not-remedied': 'Not remedied',
};

export const safetyNoticeTexts = {
  title: 'Field Safety Notices',
  navLabel: 'Field safety notices',
  intro:
    'Notices to clinics about a safety problem with their machines: who was told, who acknowledged, and which machines carry the remedy.',
  create: 'New notice',
  createTitle: 'New field safety notice',
  created: 'Draft saved',
  empty: 'No field safety notice yet.',
  preview: 'Affected machines (as they match now)',
  previewIntro:
    'These machines match the selection now. The set is frozen when the notice is sent, with each machine’s serial and app version.',
  previewEmpty: 'No machine matches this selection.',
  send: 'Send notice',
  sendTitle: 'Send the field safety notice',
  sendIntro: (machines: number, contacts: number) =>
    `${machines} ${machines === 1 ? 'machine' : 'machines'} will be frozen into this notice and ${contacts} ${contacts === 1 ? 'clinic contact is' : 'clinic contacts are'} mailed. This cannot be undone.`,
  sending: 'Sending...',
  status: 'Status per machine',
  statusEmpty: 'No machine in this view.',
  export: 'Export CSV',
  noContact: 'No contact',
  // The public acknowledgement page.
  ackTitle: 'Field safety notice',
  ackIntro: 'Please read this notice and confirm that your clinic has received it.',
  ackMachines: 'Your affected machines',
  ackNameLabel: 'Your full name',
  ackNameHint: 'Recorded with the time as your clinic’s acknowledgement.',
  ackSubmit: 'Acknowledge receipt',
  ackSubmitting: 'Recording...',
  ackDone: (name: string, time: string) => `Acknowledged by ${name} on ${time}. Thank you.`,
  ackNotFound: 'This acknowledgement link is not valid. Please contact the manufacturer.',
} as const;

/** The regulator's CSV: one row per machine of the notice, keyed as the status table's columns. */
export const noticeExportHeaders = {
  reference: 'Reference',
  serialNumber: 'Serial',
  machineNumber: 'Machine number',
  appVersion: 'App version at notice',
  contact: 'Contact',
  notifiedAt: 'Notified at',
  acknowledgedAt: 'Acknowledged at',
  acknowledgedBy: 'Acknowledged by',
  remediedAt: 'Remedied at',
} as const;
