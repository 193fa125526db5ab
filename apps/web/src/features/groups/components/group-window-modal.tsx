import type { Group } from '@app/contract/groups';
import { maintenanceWindowMessages } from '@app/contract/maintenance-windows';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { WindowFormModal } from '#web/components/window-form-modal.tsx';
import { useSetGroupWindow } from '../api/set-group-window.ts';

/**
 * A group's maintenance window (groups.manage, issue 37 item 4): saved, it is written on the group's
 * machines now; removed, it leaves the machines that had it from this group.
 */
export function GroupWindowModal({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const save = useSetGroupWindow();
  const show = group !== null;
  const remove = () =>
    group &&
    save.mutate(
      { id: group._id, window: null },
      {
        onSuccess: (answer) => {
          notify.success(answer.msg || maintenanceWindowMessages.cleared);
          onClose();
        },
        onError: (error) => notifyError(error),
      },
    );

  return (
    <WindowFormModal
      title={group ? `Maintenance window of group ${group.name}` : 'Maintenance window'}
      intro="Written on the group's machines now: restarts and re-enrolments reach them only in this window, every day, and never during a treatment. An end before the start runs past midnight."
      current={group?.maintenanceWindow ?? null}
      show={show}
      onClose={onClose}
      pending={save.isPending}
      onSave={(window) => save.mutateAsync({ id: group?._id ?? '', window })}
    >
      {group?.maintenanceWindow ? (
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          onClick={remove}
          disabled={save.isPending}
        >
          Remove window
        </button>
      ) : null}
    </WindowFormModal>
  );
}
