import { zodResolver } from '@hookform/resolvers/zod';
import type { Group } from '@app/contract/groups';
import {
  maintenanceWindowMessages,
  maintenanceWindowSchema,
  type MaintenanceWindow,
} from '@app/contract/maintenance-windows';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { notifyError, type ApiError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useSetGroupWindow } from '../api/set-group-window.ts';

/** Every zone the browser knows, the admin's own first: a machine is most often where its admin is. */
const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const zones = [ownZone, ...Intl.supportedValuesOf('timeZone').filter((z) => z !== ownZone)];

const windowFields = ['start', 'end', 'timeZone'] as const;
/** The field a 400 names (`window.start`), when it is one of the form's. */
const fieldOfError = (error: ApiError) => {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  const field = typeof path === 'string' ? path.replace(/^window\./, '') : undefined;
  return error.status === 400 && windowFields.includes(field as never)
    ? (field as (typeof windowFields)[number])
    : undefined;
};
const blank: MaintenanceWindow = { start: '02:00', end: '04:00', timeZone: ownZone };
const valuesOf = (group: Group): MaintenanceWindow => group.maintenanceWindow ?? blank;

/**
 * A group's maintenance window (groups.manage, issue 37 item 4): saved, it is written on the group's
 * machines now; removed, it leaves the machines that had it from this group.
 */
export function GroupWindowModal({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const save = useSetGroupWindow();
  const show = group !== null;
  const form = useFormModal({
    show,
    resolver: zodResolver(maintenanceWindowSchema),
    blank,
    record: group,
    valuesOf,
  });
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
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={group ? `Maintenance window of group ${group.name}` : 'Maintenance window'}
      submitLabel="Save"
      pending={save.isPending}
      onSave={(window) => save.mutateAsync({ id: group?._id ?? '', window })}
      saved={maintenanceWindowMessages.saved}
      fieldOfError={fieldOfError}
    >
      <p className="small text-body-secondary">
        Written on the group&apos;s machines now: restarts and re-enrolments reach them only in this window,
        every day, and never during a treatment. An end before the start runs past midnight.
      </p>
      {form.field('start', 'From', { type: 'time' })}
      {form.field('end', 'Until', { type: 'time' })}
      {form.select(
        'timeZone',
        'Time zone',
        zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        )),
      )}
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
    </FormModal>
  );
}
