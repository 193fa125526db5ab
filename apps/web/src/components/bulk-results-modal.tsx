import type { BulkResult, BulkRowResult } from '@app/contract/bulk-actions';
import { bulkSummary, bulkTexts } from '@app/contract/bulk-texts';
import { Modal } from './modal.tsx';
import { StatusBadge } from './status-badge.tsx';

export type BulkResultsModalProps = {
  /** What was done ("Deactivate", "Delete"); null: closed. */
  action: string | null;
  result: BulkResult | null;
  /** A row's name for people: its machine number, user name, else its id. */
  nameOf: (row: BulkRowResult) => string;
  onClose: () => void;
};

/**
 * A bulk action's answer, row by row: done, or refused with the server's reason. Refused rows come
 * first (they are what needs attention); a long list stops after bulkTexts.resultsShown rows.
 */
export function BulkResultsModal({ action, result, nameOf, onClose }: BulkResultsModalProps) {
  const rows = result
    ? [
        ...result.results.filter((r) => r.outcome === 'refused'),
        ...result.results.filter((r) => r.outcome === 'done'),
      ]
    : [];
  const shown = rows.slice(0, bulkTexts.resultsShown);
  return (
    <Modal
      show={action !== null && result !== null}
      onClose={onClose}
      title={bulkTexts.resultsTitle(action ?? '')}
      size="lg"
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Close
        </button>
      }
    >
      {result ? (
        <>
          <p className="fw-semibold">{bulkSummary(result)}</p>
          <div className="table-responsive" tabIndex={0} role="region" aria-label="Results by row">
            <table className="table table-sm align-middle mb-0">
              <caption className="visually-hidden">Results by row</caption>
              <thead className="table-light">
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Result</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr key={row._id}>
                    <td className="text-nowrap">{nameOf(row)}</td>
                    <td>
                      <StatusBadge
                        label={bulkTexts.outcome[row.outcome]}
                        tone={row.outcome === 'done' ? 'success' : 'danger'}
                      />
                    </td>
                    <td>{row.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {rows.length > shown.length ? (
            <p className="mt-2 mb-0 text-body-secondary">
              {bulkTexts.moreResults(rows.length - shown.length)}
            </p>
          ) : null}
        </>
      ) : null}
    </Modal>
  );
}
