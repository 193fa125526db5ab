import { useEffect, type ReactNode } from 'react';
import { bulkTexts } from '@app/contract/bulk-texts';
import { preloadBulkDialogs } from './lazy-dialogs.tsx';
import type { RowSelectionState } from './use-row-selection.ts';

export type SelectionBarProps = {
  selection: RowSelectionState;
  /** The keys of the rows this page shows. */
  pageKeys: readonly string[];
  /** How many rows the list's filters match (the list answer's total). */
  total: number | undefined;
  /** The total is the server's estimate (a broad device search). */
  totalIsEstimate?: boolean;
  /** The bulk action buttons. */
  children: ReactNode;
};

/**
 * "N selected" and what to do with them, shown while rows are selected. Once the whole page is
 * selected and more rows match, it offers all of them (Gmail's "Select all conversations").
 */
export function SelectionBar({
  selection,
  pageKeys,
  total,
  totalIsEstimate = false,
  children,
}: SelectionBarProps) {
  // Rows picked: the actions' confirmation and results dialogs are next, fetch them now.
  useEffect(() => {
    if (!selection.isEmpty) preloadBulkDialogs();
  }, [selection.isEmpty]);
  if (selection.isEmpty) return null;
  const wholePage = pageKeys.length > 0 && pageKeys.every((key) => selection.ids.has(key));
  const matching = total ?? 0;
  const offerAll = !selection.allMatching && wholePage && matching > selection.ids.size;
  return (
    <div
      className="selection-bar d-flex flex-wrap align-items-center gap-2 rounded px-3 py-2 mb-3"
      role="region"
      aria-label="Selection"
    >
      <span role="status" className="fw-semibold me-1">
        {selection.allMatching
          ? bulkTexts.allMatchingSelected(matching, totalIsEstimate)
          : bulkTexts.selected(selection.ids.size)}
      </span>
      {offerAll ? (
        <button type="button" className="btn btn-sm btn-link" onClick={selection.selectAllMatching}>
          {bulkTexts.selectAllMatching(matching, totalIsEstimate)}
        </button>
      ) : null}
      <button type="button" className="btn btn-sm btn-link" onClick={selection.clear}>
        {bulkTexts.clear}
      </button>
      <div className="d-flex flex-wrap gap-2 ms-auto">{children}</div>
    </div>
  );
}
