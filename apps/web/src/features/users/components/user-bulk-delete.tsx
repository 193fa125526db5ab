import { bulkTexts } from '@app/contract/bulk-texts';
import type { UserBulkFilters } from '@app/contract/users';
import { LazyBulkResultsModal, LazyConfirmModal } from '#web/components/lazy-dialogs.tsx';
import { SelectionBar } from '#web/components/selection-bar.tsx';
import { useBulkAction } from '#web/components/use-bulk-action.ts';
import type { RowSelectionState } from '#web/components/use-row-selection.ts';
import { useBulkDeleteUsers } from '../api/bulk-delete-users.ts';

export type UserBulkDeleteProps = {
  selection: RowSelectionState;
  /** The search the list shows: "all matching" is resolved from it by the server. */
  filters: UserBulkFilters;
  pageKeys: readonly string[];
  total: number | undefined;
};

/**
 * User Management's selection bar with a bulk Delete (decision 055): the spec's own delete
 * confirmation (Remove Data, No / Yes, Deleting...), then the answer user by user: yourself and
 * protected users are refused with the reason.
 */
export function UserBulkDelete({ selection, filters, pageKeys, total }: UserBulkDeleteProps) {
  const bulkDelete = useBulkDeleteUsers();
  const bulk = useBulkAction(
    () =>
      bulkDelete.mutateAsync(selection.allMatching ? { allMatching: filters } : { ids: [...selection.ids] }),
    selection.clear,
  );
  return (
    <>
      <SelectionBar selection={selection} pageKeys={pageKeys} total={total}>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => bulk.ask('delete')}>
          {bulkTexts.deleteSelected}
        </button>
      </SelectionBar>
      <LazyConfirmModal {...bulk.confirm} />
      <LazyBulkResultsModal
        action={bulk.answer ? bulkTexts.deleteSelected : null}
        result={bulk.answer?.result ?? null}
        nameOf={(row) => row.userName ?? row._id}
        onClose={bulk.closeAnswer}
      />
    </>
  );
}
