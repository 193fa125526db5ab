import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  userCreateBodySchema,
  userMessages,
  userUpdateBodySchema,
  type User,
  type UserCreateBody,
  type UserCreateBodyInput,
} from '@app/contract/users';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { ModalFormFooter } from '#web/components/modal-form-footer.tsx';
import { ApiError, notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useHeldPermissions, useSession } from '#web/lib/use-session.ts';
import { grantMessages } from '@app/contract/permissions';
import { useRoleOptions } from '../api/get-role-options.ts';
import { useSaveUser } from '../api/save-user.ts';
import { RoleOptions } from './role-options.tsx';

export type UserFormModalProps = {
  show: boolean;
  onClose: () => void;
  /** The user to edit; a new user when absent. */
  user?: User | null;
};

const blank: UserCreateBodyInput = {
  firstName: '',
  lastName: '',
  roleId: '',
  userName: '',
  email: '',
  phone: '',
  password: '',
};

/** Add New User / Edit User (docs/product.md §5.9 "User"): the edit form has no password field. */
export function UserFormModal({ show, onClose, user }: UserFormModalProps) {
  const editing = Boolean(user);
  const save = useSaveUser();
  const roles = useRoleOptions(show);
  const held = useHeldPermissions();
  // Nobody changes their own role (decision 063): editing oneself offers only the role one holds.
  const selfId = useSession((s) => s.details?._id ?? null);
  const ownRole = user && user._id === selfId ? user.roleId : undefined;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<UserCreateBodyInput, unknown, UserCreateBody>({
    // The edit schema has no password; its output is the create body without it.
    resolver: zodResolver(
      (editing ? userUpdateBodySchema : userCreateBodySchema) as typeof userCreateBodySchema,
    ),
    defaultValues: blank,
  });

  useEffect(() => {
    if (!show) return;
    reset(
      user
        ? {
            firstName: user.firstName ?? '',
            lastName: user.lastName ?? '',
            roleId: user.roleId,
            userName: user.userName,
            email: user.email,
            phone: user.phone ?? '',
            password: '',
          }
        : blank,
    );
  }, [show, user, reset]);

  const submit = handleSubmit(async (values) => {
    try {
      const response = user
        ? await save.mutateAsync({ id: user._id, body: values })
        : await save.mutateAsync({ body: values });
      notify.success(response.msg || (user ? userMessages.updated : userMessages.created));
      onClose();
    } catch (error) {
      // A taken email or user name goes under its field; anything else is a toast.
      if (error instanceof ApiError && error.status === 409 && error.msg === userMessages.emailTaken)
        setError('email', { message: error.msg });
      else if (error instanceof ApiError && error.status === 409 && error.msg === userMessages.userNameTaken)
        setError('userName', { message: error.msg });
      else notifyError(error);
    }
  });

  const title = editing ? 'Edit User' : 'Add New User';
  const message = (name: keyof UserCreateBodyInput) => errors[name]?.message;
  return (
    <Modal
      show={show}
      onClose={onClose}
      title={title}
      size="lg"
      staticBackdrop
      footer={
        <ModalFormFooter
          onCancel={onClose}
          pending={save.isPending}
          submitLabel={editing ? 'Save' : 'Add User'}
          form="user-form"
        />
      }
    >
      <form id="user-form" noValidate onSubmit={submit} className="row">
        <FormField
          label="First Name"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('firstName')}
          {...register('firstName')}
        />
        <FormField
          label="Last Name"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('lastName')}
          {...register('lastName')}
        />
        <FormField
          label="User Name"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('userName')}
          {...register('userName')}
        />
        <FormField
          label="Email"
          type="email"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('email')}
          {...register('email')}
        />
        <FormField
          label="Phone No."
          type="tel"
          inputMode="numeric"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={message('phone')}
          {...register('phone')}
        />
        <FormField
          as="select"
          label="Role"
          required
          wrapperClassName="col-md-6 mb-3"
          error={message('roleId')}
          hint={ownRole ? grantMessages.ownRole : undefined}
          {...register('roleId')}
        >
          {ownRole ? null : <option value="">{roles.isPending ? 'Loading roles...' : 'Select role'}</option>}
          <RoleOptions roles={roles.data ?? []} held={held} only={ownRole} />
        </FormField>
        {editing ? null : (
          <FormField
            label="Password"
            type="password"
            required
            autoComplete="new-password"
            wrapperClassName="col-md-6 mb-3"
            error={message('password')}
            {...register('password')}
          />
        )}
      </form>
    </Modal>
  );
}
