import { zodResolver } from '@hookform/resolvers/zod';
import { groupMessages, updateGroupBodySchema, type Group } from '@app/contract/groups';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useRenameGroup } from '../api/rename-group.ts';

const nameOnly = updateGroupBodySchema.pick({ name: true });
const blank = { name: '' };
const valuesOf = (group: Group) => ({ name: group.name });
/** A taken name (409) or a refused one (400) belongs under the field; anything else is a toast. */
const fieldOfError = (error: ApiError) => (error.status === 409 || error.status === 400 ? 'name' : undefined);

/** Rename group (groups.manage): the name alone; a dynamic group keeps its filter. */
export function RenameGroupModal({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const rename = useRenameGroup();
  const show = group !== null;
  const form = useFormModal({ show, resolver: zodResolver(nameOnly), blank, record: group, valuesOf });
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={group ? `Rename group ${group.name}` : 'Rename group'}
      submitLabel="Save"
      pending={rename.isPending}
      onSave={({ name }) => rename.mutateAsync({ id: group?._id ?? '', name })}
      saved={groupMessages.updated}
      fieldOfError={fieldOfError}
    >
      {form.field('name', 'Name')}
    </FormModal>
  );
}
