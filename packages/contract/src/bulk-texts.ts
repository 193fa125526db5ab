import { formatCount } from './count-format.ts';

/*
 * Bulk actions' words (decision 055), without zod: every list's table and selection bar show them,
 * and importing bulk-actions.ts for them put its schemas on the lists' first screen. bulk-actions.ts
 * re-exports the answer's summary for the API.
 */

/** The answer's own message: "3 done, 1 refused". */
export const bulkSummary = ({ done, refused }: { done: number; refused: number }) =>
  `${formatCount(done)} done, ${formatCount(refused)} refused`;

/** The console's words for selecting rows and acting on them (ours: the spec has no bulk actions). */
export const bulkTexts = {
  selectRow: (name: string) => `Select ${name}`,
  selectPage: 'Select all on this page',
  selected: (n: number) => `${formatCount(n)} selected`,
  selectAllMatching: (n: number, estimated = false) =>
    `Select all ${estimated ? 'about ' : ''}${formatCount(n)} matching`,
  allMatchingSelected: (n: number, estimated = false) =>
    `All ${estimated ? 'about ' : ''}${formatCount(n)} matching selected`,
  clear: 'Clear selection',
  /** The device status the bulk buttons set, by status code: Activate (2), Deactivate (1). */
  statusAction: { 1: 'Deactivate', 2: 'Activate' } as const,
  /**
   * The spec's status select asks nothing; many machines at once do. The title and text name how
   * many machines; the buttons are the spec's No and Yes.
   */
  statusConfirmTitle: (status: 1 | 2) => `${bulkTexts.statusAction[status]} Machines`,
  statusConfirmText: (status: 1 | 2, n: number) =>
    `Are you sure you want to ${bulkTexts.statusAction[status].toLowerCase()} ${formatCount(n)} machine${n === 1 ? '' : 's'}?`,
  statusPending: 'Saving...',
  deleteSelected: 'Delete',
  resultsTitle: (action: string) => `${action}: results`,
  outcome: { done: 'Done', refused: 'Refused' } as const,
  /** The results list shows this many rows, refused ones first; the summary counts them all. */
  resultsShown: 200,
  moreResults: (n: number) => `and ${formatCount(n)} more done`,
} as const;
