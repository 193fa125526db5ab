import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { accountMessages, changePasswordBodySchema, type ChangePasswordBody } from '@app/contract/account';
import { FormField } from '#web/components/form-field.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useChangePassword } from '../api/change-password.ts';

/** /admin/change-password: the current and the new password (docs/product.md §2.15, §5.3). */
export function ChangePasswordPage() {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: { old_password: '', new_password: '' },
  });

  const onSubmit = async (body: ChangePasswordBody) => {
    try {
      await change.mutateAsync(body);
      notify.success(accountMessages.passwordChanged);
      reset();
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <>
      <PageHeader title="Change Password" />
      <div className="card shadow-sm form-card">
        <div className="card-body">
          <form noValidate onSubmit={handleSubmit(onSubmit)} style={{ maxWidth: 480 }}>
            <FormField
              label="Current Password"
              type="password"
              autoComplete="current-password"
              error={errors.old_password?.message}
              {...register('old_password')}
            />
            <FormField
              label="New Password"
              type="password"
              autoComplete="new-password"
              hint="At least 6 characters. Your other sessions will be signed out."
              error={errors.new_password?.message}
              {...register('new_password')}
            />
            <button type="submit" className="btn btn-primary" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Change Password'}
            </button>
          </form>
        </div>
      </div>
    </>
  );
}
