import type { ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  maintenanceWindowMessages,
  maintenanceWindowSchema,
  type MaintenanceWindow,
} from '@app/contract/maintenance-windows';
import { FormModal, useFormModal } from './form-modal.tsx';
import type { ApiError } from '../lib/api-client.ts';

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
const valuesOf = (w: MaintenanceWindow) => w;

/**
 * The maintenance window form (issue 37 item 4), for a machine (Device Details) and for a group
 * (the Groups screen): from, until and the time zone, checked by the contract's schema, a refusal
 * under the field it names. `children` come after the fields (the group's Remove window).
 */
export function WindowFormModal({
  title,
  intro,
  zoneLabel = 'Time zone',
  current,
  show,
  onClose,
  onSave,
  pending,
  children,
}: {
  title: string;
  intro: string;
  /** The time zone's label ("Machine's time zone" on a machine's form). */
  zoneLabel?: string;
  current: MaintenanceWindow | null;
  show: boolean;
  onClose: () => void;
  onSave: (window: MaintenanceWindow) => Promise<{ msg?: string }>;
  pending: boolean;
  children?: ReactNode;
}) {
  const form = useFormModal({
    show,
    resolver: zodResolver(maintenanceWindowSchema),
    blank,
    record: current,
    valuesOf,
  });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={title}
      submitLabel="Save"
      pending={pending}
      onSave={onSave}
      saved={maintenanceWindowMessages.saved}
      fieldOfError={fieldOfError}
    >
      <p className="small text-body-secondary">{intro}</p>
      {form.field('start', 'From', { type: 'time' })}
      {form.field('end', 'Until', { type: 'time' })}
      {form.select(
        'timeZone',
        zoneLabel,
        zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        )),
      )}
      {children}
    </FormModal>
  );
}
