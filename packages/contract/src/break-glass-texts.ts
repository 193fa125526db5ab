/*
 * Break-glass access (issue 38 item 5, decision 082): the paths and the console's texts, kept free
 * of zod because the top bar's bell reads them on every admin screen (docs/architecture.md §7). The
 * schemas and the API's messages are in break-glass.ts.
 */

/** The module's own API paths (a module's paths live in its contract, decision 067). */
export const breakGlassPaths = {
  /** POST: declare an emergency with a reason; GET: read the patient again while the access lasts. */
  patient: (patientId: string) => `/api/v1/admin/patient/${patientId}/break-glass`,
  list: '/api/v1/admin/break-glass',
  /** The top bar's bell: uses awaiting sign-off. */
  count: '/api/v1/admin/break-glass/count',
  signOff: (id: string) => `/api/v1/admin/break-glass/${id}/sign-off`,
} as const;

/** The review screen of the console, for the bell, the sidebar and the mail's link. */
export const breakGlassScreenPath = '/admin/break-glass';

export const breakGlassStates = ['open', 'signed-off'] as const;
export type BreakGlassState = (typeof breakGlassStates)[number];

export const breakGlassStateLabels: Record<BreakGlassState, string> = {
  open: 'Awaiting sign-off',
  'signed-off': 'Signed off',
};

export const breakGlassTexts = {
  // The patient page, for an admin whose role cannot reveal.
  button: 'Break the glass',
  dialogTitle: 'Break the glass',
  intro:
    "For an emergency only. You will see this patient's contact details for a limited time. Every security reviewer is told at once, and this access stays in their review list until one of them signs it off.",
  reasonLabel: 'What is the emergency?',
  reasonHint: 'Kept with your name and the time, and sent to the security reviewers.',
  submit: 'Break the glass',
  submitting: 'Opening...',
  endsAt: (time: string) => `Emergency access: shown until ${time}.`,
  ended: 'Your emergency access to this patient has ended.',
  // The review screen.
  title: 'Break-glass Review',
  navLabel: 'Break-glass Review',
  reviewIntro:
    "Each time an admin declared an emergency to see a patient's data. Every use stays under Awaiting sign-off until a reviewer other than that admin signs it off.",
  emptyOpen: 'No emergency access awaits sign-off.',
  emptySignedOff: 'No emergency access has been signed off yet.',
  /** Whether the access itself still lasts (a use may be signed off while it does). */
  accessOpen: 'Still open',
  accessEnded: 'Ended',
  signOff: 'Sign off',
  signOffTitle: 'Sign off emergency access',
  signOffIntro: (who: string, when: string) =>
    `${who} broke the glass on ${when}. Signing off records your name, the time and your note.`,
  noteLabel: 'Review note',
  noteHint: 'What you checked, and what you concluded.',
  signingOff: 'Signing off...',
  ownUse: 'Broken by you: another reviewer signs it off',
  // The bell beside the alarms' bell.
  bellTitle: 'Emergency access awaiting sign-off',
  bell: (open: number) =>
    open === 1 ? '1 emergency access awaits sign-off' : `${open} emergency accesses await sign-off`,
} as const;
