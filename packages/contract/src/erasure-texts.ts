/*
 * Erasure requests (issue 38 item 4, GDPR Art. 17, decision 085): the paths, the decisions, the parts
 * of a patient's data an admin may erase, the legal bases for keeping or refusing, and the console's
 * texts, kept free of zod so the patient page's button can read them cheaply. The schemas and the
 * API's messages are in erasure.ts.
 */

/** The module's own API paths (a module's paths live in its contract, decision 067). */
export const erasurePaths = {
  /** GET: the requests (state filter, paged); POST: record a new one. */
  list: '/api/v1/admin/erasure-requests',
  one: (id: string) => `/api/v1/admin/erasure-requests/${id}`,
  /** POST once: the signed decision, carried out in the same transaction. */
  decide: (id: string) => `/api/v1/admin/erasure-requests/${id}/decision`,
} as const;

/** The console's screens: the list, and one request (its page, where it is decided). */
export const erasureScreenPath = '/admin/erasure-requests';
export const erasureRequestScreenPath = (id: string) => `${erasureScreenPath}/${id}`;

export const erasureStates = ['open', 'erased', 'erased-in-part', 'refused'] as const;
export type ErasureState = (typeof erasureStates)[number];
export const erasureStateLabels: Record<ErasureState, string> = {
  open: 'Awaiting decision',
  erased: 'Erased',
  'erased-in-part': 'Erased in part',
  refused: 'Refused',
};

export const erasureDecisions = ['erase', 'erase-in-part', 'refuse'] as const;
export type ErasureDecision = (typeof erasureDecisions)[number];
export const erasureDecisionLabels: Record<ErasureDecision, string> = {
  erase: 'Erase everything',
  'erase-in-part': 'Erase in part',
  refuse: 'Refuse',
};

/**
 * What an admin may erase, each a whole group of the patient's data, named as a regulator reads it.
 * Erasing everything erases the three; erasing in part erases the ones picked and keeps the rest
 * under a legal basis.
 */
export const erasureParts = ['contact', 'identity', 'treatments'] as const;
export type ErasurePart = (typeof erasureParts)[number];
export const erasurePartLabels: Record<ErasurePart, string> = {
  contact: 'Contact details',
  identity: 'Identity',
  treatments: 'Treatment records',
};
export const erasurePartHints: Record<ErasurePart, string> = {
  contact: 'Email, phone number, address, city, state, country and location.',
  identity:
    'Name, nickname, sex and age, and the name wherever it was written: kept treatments, saved views, mail, notes.',
  treatments:
    'Every treatment record of this patient, with its pictures. Kept treatments stay for their retention period; without Identity they keep the name.',
};

/** GDPR Art. 17(3) grounds (and a legal hold) for keeping data or refusing a request. */
export const erasureLegalBases = [
  'retention-duty',
  'public-health',
  'legal-claims',
  'legal-hold',
  'other',
] as const;
export type ErasureLegalBasis = (typeof erasureLegalBases)[number];
export const erasureLegalBasisLabels: Record<ErasureLegalBasis, string> = {
  'retention-duty': 'Legal duty to keep medical records (Art. 17(3)(b))',
  'public-health': 'Public health: device safety and vigilance (Art. 17(3)(c))',
  'legal-claims': 'Establishment, exercise or defence of legal claims (Art. 17(3)(e))',
  'legal-hold': 'A legal hold is set on this patient',
  other: 'Other (say which)',
};

/** How the patient's request reached the business. */
export const erasureChannels = ['email', 'letter', 'phone', 'in-person', 'clinic', 'other'] as const;
export type ErasureChannel = (typeof erasureChannels)[number];
export const erasureChannelLabels: Record<ErasureChannel, string> = {
  email: 'Email',
  letter: 'Letter',
  phone: 'Phone',
  'in-person': 'In person',
  clinic: 'Through the clinic',
  other: 'Other',
};

/** What stands in for an erased name, on the patient and on kept treatments. */
export const erasedName = 'Erased patient';
/** What stands in for an erased value in text kept elsewhere (history, mail, notes, views). */
export const erasedMark = '[erased]';

export const erasureTexts = {
  title: 'Erasure Requests',
  navLabel: 'Erasure Requests',
  intro:
    "Patients' requests to erase their data (GDPR Art. 17). Each is decided once and signed: erase everything, erase in part and keep the rest under a legal basis, or refuse with the legal basis. The record of what was done stays; the erased data does not.",
  empty: (state: ErasureState) =>
    state === 'open'
      ? 'No erasure request awaits a decision.'
      : `No request is ${erasureStateLabels[state].toLowerCase()}.`,
  // The patient page.
  start: 'Record erasure request',
  startTitle: 'Record an erasure request',
  startIntro:
    'Record that this patient asked for their data to be erased. It waits in Erasure Requests until an admin decides it.',
  channelLabel: 'How did the request arrive?',
  receivedLabel: 'Received on',
  noteLabel: 'Note (optional)',
  noteHint: "What was asked, and any reference. Do not write the patient's name or contact details here.",
  recording: 'Recording...',
  openRequest: 'An erasure request for this patient awaits a decision',
  erasedNotice: "This patient's data was erased on request.",
  // The request page.
  requestTitle: 'Erasure Request',
  decide: 'Decide',
  decisionLabel: 'Decision',
  partsLabel: 'Parts to erase',
  keptBasisLabel: 'Legal basis for what is kept',
  refuseBasisLabel: 'Legal basis for refusing',
  basisNoteLabel: 'Details of the legal basis',
  basisNoteHint: 'E.g. the law and period: "Dutch WGBO art. 7:454, 20 years".',
  deciding: 'Carrying out...',
  confirmErase:
    'This erases the chosen data everywhere the patient appears. It cannot be undone. Sign to carry it out.',
  outcomeTitle: 'What was done',
  keptTitle: 'What was kept, and why',
  nothingKept: 'Nothing was kept.',
  logsNote:
    'Access and error logs are append-only and hash-chained: they hold the patient by record id, not by name, and are not rewritten.',
} as const;
