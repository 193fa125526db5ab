import { zodResolver } from '@hookform/resolvers/zod';
import {
  roleBodySchema,
  roleMessages,
  roleTypeLabels,
  roleTypes,
  type Role,
  type RoleBodyInput,
} from '@app/contract/roles';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { useSaveRole } from '../api/save-role.ts';

export type RoleFormModalProps = {
  show: boolean;
  onClose: () => void;
  /** The role to edit; a new role when absent. */
  role?: Role | null;
  /** Called once a new role is saved, so the list can turn to the page it lands on. */
  onCreated?: () => void;
};

const blank = { roleName: '', type: '' } as unknown as RoleBodyInput;
const fromRole = (role: Role): RoleBodyInput => ({ roleName: role.roleName, type: role.type });

/** Add Role / Edit Role (docs/product.md §5.8 "Role"): a name and a type, App or Web. */
export function RoleFormModal({ show, onClose, role, onCreated }: RoleFormModalProps) {
  const save = useSaveRole();
  const form = useFormModal({
    show,
    resolver: zodResolver(roleBodySchema),
    blank,
    record: role,
    valuesOf: fromRole,
  });

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={role ? 'Edit Role' : 'Add Role'}
      submitLabel="Save"
      pending={save.isPending}
      onSave={async (body) => {
        const response = await save.mutateAsync({ id: role?._id, body });
        if (!role) onCreated?.();
        return response;
      }}
      saved={role ? roleMessages.updated : roleMessages.created}
      // A taken name belongs under the name field; anything else is a toast.
      fieldOfError={(error) => (error.status === 409 ? 'roleName' : undefined)}
    >
      {form.field('roleName', 'Role Name')}
      {form.select(
        'type',
        'Type',
        <>
          <option value="">Select type</option>
          {roleTypes.map((type) => (
            <option key={type} value={type}>
              {roleTypeLabels[type]}
            </option>
          ))}
        </>,
      )}
    </FormModal>
  );
}
