import { zodResolver } from '@hookform/resolvers/zod';
import { grantMessages } from '@app/contract/permissions';
import {
  userCreateBodySchema,
  userMessages,
  userUpdateBodySchema,
  type User,
  type UserCreateBodyInput,
} from '@app/contract/users';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useHeldPermissions, useSession } from '#web/lib/use-session.ts';
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

const fromUser = (user: User): UserCreateBodyInput => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  roleId: user.roleId,
  userName: user.userName,
  email: user.email,
  phone: user.phone ?? '',
  password: '',
});

/** A taken email or user name goes under its field; anything else is a toast. */
function takenField(error: ApiError): 'email' | 'userName' | undefined {
  if (error.status !== 409) return undefined;
  if (error.msg === userMessages.emailTaken) return 'email';
  if (error.msg === userMessages.userNameTaken) return 'userName';
  return undefined;
}

/** Add New User / Edit User (docs/product.md §5.9 "User"): the edit form has no password field. */
export function UserFormModal({ show, onClose, user }: UserFormModalProps) {
  const editing = Boolean(user);
  const save = useSaveUser();
  const roles = useRoleOptions(show);
  const held = useHeldPermissions();
  // Nobody changes their own role (decision 063): editing oneself offers only the role one holds.
  const selfId = useSession((s) => s.details?._id ?? null);
  const ownRole = user && user._id === selfId ? user.roleId : undefined;
  const form = useFormModal({
    show,
    // The edit schema has no password; its output is the create body without it.
    resolver: zodResolver(
      (editing ? userUpdateBodySchema : userCreateBodySchema) as typeof userCreateBodySchema,
    ),
    blank,
    record: user,
    valuesOf: fromUser,
    columns: 2,
  });
  const { field, select } = form;

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={editing ? 'Edit User' : 'Add New User'}
      submitLabel={editing ? 'Save' : 'Add User'}
      pending={save.isPending}
      onSave={(body) => (user ? save.mutateAsync({ id: user._id, body }) : save.mutateAsync({ body }))}
      saved={user ? userMessages.updated : userMessages.created}
      fieldOfError={takenField}
    >
      {field('firstName', 'First Name')}
      {field('lastName', 'Last Name')}
      {field('userName', 'User Name')}
      {field('email', 'Email', { type: 'email' })}
      {field('phone', 'Phone No.', { type: 'tel', inputMode: 'numeric' })}
      {select(
        'roleId',
        'Role',
        <>
          {ownRole ? null : <option value="">{roles.isPending ? 'Loading roles...' : 'Select role'}</option>}
          <RoleOptions roles={roles.data ?? []} held={held} only={ownRole} />
        </>,
        ownRole ? grantMessages.ownRole : undefined,
      )}
      {editing ? null : field('password', 'Password', { type: 'password', autoComplete: 'new-password' })}
    </FormModal>
  );
}
