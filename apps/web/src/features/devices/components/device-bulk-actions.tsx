import type { DeviceBulkFilters } from '@app/contract/bulk-actions';
import { bulkTexts } from '@app/contract/bulk-texts';
import type { DeviceStatus } from '@app/contract/devices';
import { LazyBulkResultsModal, LazyConfirmModal } from '#web/components/lazy-dialogs.tsx';
import { SelectionBar } from '#web/components/selection-bar.tsx';
import { useBulkAction } from '#web/components/use-bulk-action.ts';
import type { RowSelectionState } from '#web/components/use-row-selection.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useBulkDeviceStatus } from '../api/bulk-device-status.ts';
import { DeviceBulkOperations } from './device-bulk-operations.tsx';

export type DeviceBulkActionsProps = {
  selection: RowSelectionState;
  /** The filters the list shows: "all matching" is resolved from them by the server. */
  filters: DeviceBulkFilters;
  pageKeys: readonly string[];
  total: number | undefined;
  totalIsEstimate?: boolean;
};

// Deactivate first: taking machines out of service is the usual reason to pick many.
const actions: DeviceStatus[] = [1, 2];

/**
 * Device Management's selection bar with bulk Activate and Deactivate (decision 055): asked with
 * how many machines, then answered machine by machine (devices.edit); and Send command and Add to
 * group (issue 37, each with its own permission). The page offers selection only with one of them.
 */
export function DeviceBulkActions({
  selection,
  filters,
  pageKeys,
  total,
  totalIsEstimate,
}: DeviceBulkActionsProps) {
  const bulkStatus = useBulkDeviceStatus();
  const bulk = useBulkAction(
    (status: DeviceStatus) =>
      bulkStatus.mutateAsync({
        selection: selection.allMatching ? { allMatching: filters } : { ids: [...selection.ids] },
        status,
      }),
    selection.clear,
  );
  const mayEdit = useCan('devices.edit');
  const count = selection.allMatching ? (total ?? 0) : selection.ids.size;
  const picked = selection.allMatching ? { allMatching: filters } : { ids: [...selection.ids] };
  return (
    <>
      <SelectionBar selection={selection} pageKeys={pageKeys} total={total} totalIsEstimate={totalIsEstimate}>
        {(mayEdit ? actions : []).map((status) => (
          <button
            key={status}
            type="button"
            className={`btn btn-sm ${status === 1 ? 'btn-outline-danger' : 'btn-outline-primary'}`}
            onClick={() => bulk.ask(status)}
          >
            {bulkTexts.statusAction[status]}
          </button>
        ))}
        <DeviceBulkOperations selection={picked} count={count} />
      </SelectionBar>
      <LazyConfirmModal
        {...bulk.confirm}
        title={bulk.asking ? bulkTexts.statusConfirmTitle(bulk.asking) : ''}
        text={bulk.asking ? bulkTexts.statusConfirmText(bulk.asking, count) : ''}
        pendingText={bulkTexts.statusPending}
      />
      <LazyBulkResultsModal
        action={bulk.answer ? bulkTexts.statusAction[bulk.answer.action] : null}
        result={bulk.answer?.result ?? null}
        nameOf={(row) => row.machineNumber ?? row._id}
        onClose={bulk.closeAnswer}
      />
    </>
  );
}
