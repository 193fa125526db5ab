import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  roleBodySchema,
  roleMessages,
  roleTypeLabels,
  roleTypes,
  type Role,
  type RoleBody,
  type RoleBodyInput,
} from '@app/contract/roles';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { ApiError, notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useSaveRole } from '../api/save-role.ts';

export type RoleFormModalProps = {
  show: boolean;
  onClose: () => void;
  /** The role to edit; a new role when absent. */
  role?: Role | null;
};

const blank = { roleName: '', type: '' } as unknown as RoleBodyInput;

/** Add Role / Edit Role (docs/product.md §5.8 "Role"): a name and a type, App or Web. */
export function RoleFormModal({ show, onClose, role }: RoleFormModalProps) {
  const save = useSaveRole();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<RoleBodyInput, unknown, RoleBody>({
    resolver: zodResolver(roleBodySchema),
    defaultValues: blank,
  });

  useEffect(() => {
    if (show) reset(role ? { roleName: role.roleName, type: role.type } : blank);
  }, [show, role, reset]);

  const submit = handleSubmit(async (body) => {
    try {
      const response = await save.mutateAsync({ id: role?._id, body });
      notify.success(response.msg || (role ? roleMessages.updated : roleMessages.created));
      onClose();
    } catch (error) {
      // A taken name belongs under the name field; anything else is a toast.
      if (error instanceof ApiError && error.status === 409) setError('roleName', { message: error.msg });
      else notifyError(error);
    }
  });

  const title = role ? 'Edit Role' : 'Add Role';
  return (
    <Modal
      show={show}
      onClose={onClose}
      title={title}
      staticBackdrop
      footer={
        <ModalFormFooter onCancel={onClose} pending={save.isPending} submitLabel="Save" form="role-form" />
      }
    >
      <form id="role-form" noValidate onSubmit={submit}>
        <FormField
          label="Role Name"
          required
          autoComplete="off"
          error={errors.roleName?.message}
          {...register('roleName')}
        />
        <FormField as="select" label="Type" required error={errors.type?.message} {...register('type')}>
          <option value="">Select type</option>
          {roleTypes.map((type) => (
            <option key={type} value={type}>
              {roleTypeLabels[type]}
            </option>
          ))}
        </FormField>
      </form>
    </Modal>
  );
}
