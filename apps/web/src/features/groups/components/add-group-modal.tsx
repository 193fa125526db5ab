import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { onlineFilterLabels, onlineFilters } from '@app/contract/devices';
import { createGroupBodySchema, groupKinds, groupMessages } from '@app/contract/groups';
import { licenceStateLabels, licenceStates } from '@app/contract/licences';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useCreateGroup } from '../api/create-group.ts';
import { groupKindLabels } from './group-words.ts';

/*
 * Add group (issue 37 item 1): a name and a kind; a dynamic group also takes a few of Device
 * Management's filters (deviceFilterShape), each optional but at least one. The form holds text; the
 * contract's schema checks what would be sent, so its messages sit under the fields they name.
 */

const filterKeys = ['country', 'city', 'online', 'licence'] as const;
type FilterKey = (typeof filterKeys)[number];
type CreateInput = z.input<typeof createGroupBodySchema>;

const formSchema = z
  .object({
    name: z.string(),
    kind: z.string(),
    filter: z.object({ country: z.string(), city: z.string(), online: z.string(), licence: z.string() }),
  })
  .transform(({ name, kind, filter }): CreateInput => {
    if (kind !== 'dynamic') return { name, kind } as CreateInput;
    // Left empty: not part of the filter. None at all is the contract's "filter is required".
    const named = Object.fromEntries(
      filterKeys.map((key) => [key, filter[key].trim()] as const).filter(([, value]) => value !== ''),
    );
    return { name, kind, filter: Object.keys(named).length ? named : undefined } as CreateInput;
  })
  .pipe(createGroupBodySchema);
type GroupForm = z.input<typeof formSchema>;

const blank: GroupForm = {
  name: '',
  kind: 'static',
  filter: { country: '', city: '', online: '', licence: '' },
};

const formFields = ['name', 'kind', 'filter', ...filterKeys.map((key) => `filter.${key}` as const)];
/** A taken name goes under Name; a 400 that names one of the form's fields goes under it. */
const fieldOfError = (error: ApiError) => {
  if (error.status === 409) return 'name';
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  return error.status === 400 && formFields.includes(path as never)
    ? (path as 'name' | 'kind' | 'filter' | `filter.${FilterKey}`)
    : undefined;
};

export function AddGroupModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const create = useCreateGroup();
  const form = useFormModal({ show, resolver: zodResolver(formSchema), blank });
  const dynamic = form.watch('kind') === 'dynamic';
  const error = (key: FilterKey) => form.getFieldState(`filter.${key}`, form.formState).error?.message;
  const filterError = form.formState.errors.filter?.message;
  const filterErrorId = useId();

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title="Add group"
      submitLabel="Save"
      pending={create.isPending}
      onSave={(body) => create.mutateAsync(body)}
      saved={groupMessages.created}
      fieldOfError={fieldOfError}
    >
      {form.field('name', 'Name')}
      {form.select(
        'kind',
        'Kind',
        groupKinds.map((kind) => (
          <option key={kind} value={kind}>
            {groupKindLabels[kind]}
          </option>
        )),
        dynamic
          ? 'The machines that match the filter whenever the group is used.'
          : "Machines are added to it from Device Management's bulk actions.",
      )}
      {dynamic ? (
        <fieldset aria-describedby={filterError ? filterErrorId : undefined}>
          <legend className="fs-6 fw-semibold">Filter</legend>
          <p className="small text-body-secondary">
            As on Device Management; leave a field empty to match any value.
          </p>
          <FormField
            label="Country"
            error={error('country')}
            autoComplete="off"
            {...form.register('filter.country')}
          />
          <FormField
            label="City"
            error={error('city')}
            autoComplete="off"
            {...form.register('filter.city')}
          />
          <FormField as="select" label="Online" error={error('online')} {...form.register('filter.online')}>
            <option value="">Any</option>
            {onlineFilters.map((value) => (
              <option key={value} value={value}>
                {onlineFilterLabels[value]}
              </option>
            ))}
          </FormField>
          <FormField
            as="select"
            label="Licence"
            error={error('licence')}
            {...form.register('filter.licence')}
          >
            <option value="">Any</option>
            {licenceStates.map((value) => (
              <option key={value} value={value}>
                {licenceStateLabels[value]}
              </option>
            ))}
          </FormField>
          {filterError ? (
            <div id={filterErrorId} className="invalid-feedback d-block mb-3">
              {filterError}
            </div>
          ) : null}
        </fieldset>
      ) : null}
    </FormModal>
  );
}
