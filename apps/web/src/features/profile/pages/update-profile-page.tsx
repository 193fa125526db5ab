import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import {
  accountMessages,
  isAllowedImageFile,
  profileImageMaxBytes,
  profileUpdateFieldsSchema,
  type ProfileUpdateFields,
} from '@app/contract/account';
import type { AdminProfile } from '@app/contract/auth';
import { webMessages } from '@app/contract/web-messages';
import { paths } from '#web/lib/paths.ts';
import { BackButton } from '#web/components/back-button.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useProfile } from '../api/get-profile.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { ProfileAvatar } from '../components/profile-avatar.tsx';

/** /admin/update-profile: edit form with image upload and preview; the email is read-only (docs/product.md §2.15, §5.4, §8). */
export function UpdateProfilePage() {
  const { data: profile, isPending, isError } = useProfile();
  return (
    <>
      <PageHeader title="Update Profile" actions={<BackButton to={paths.profile.href()} />} />
      <div className="card shadow-sm">
        <div className="card-body">
          {isPending ? (
            <Spinner />
          ) : isError || !profile ? (
            <p className="mb-0">{webMessages.genericError}</p>
          ) : (
            <UpdateProfileForm profile={profile} />
          )}
        </div>
      </div>
    </>
  );
}

/** The picked file's problem, if any: the server decides by content, this is the quick check. */
export function imageProblem(file: File): string | null {
  if (!isAllowedImageFile(file)) return accountMessages.imageType;
  if (file.size > profileImageMaxBytes) return accountMessages.imageTooLarge;
  return null;
}

function UpdateProfileForm({ profile }: { profile: AdminProfile }) {
  const update = useUpdateProfile();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof profileUpdateFieldsSchema>, unknown, ProfileUpdateFields>({
    resolver: zodResolver(profileUpdateFieldsSchema),
    defaultValues: {
      firstName: profile.firstName ?? '',
      lastName: profile.lastName ?? '',
      userName: profile.userName,
      phone: profile.phone ?? '',
    },
  });

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    const problem = picked ? imageProblem(picked) : null;
    setFileError(problem);
    if (!picked || problem) {
      setFile(null);
      setPreview(null);
      if (problem) event.target.value = '';
      return;
    }
    setFile(picked);
    setPreview(URL.createObjectURL(picked));
  };

  const onSubmit = async (fields: ProfileUpdateFields) => {
    if (fileError) return;
    try {
      await update.mutateAsync({ fields, email: profile.email, file });
      notify.success(accountMessages.profileUpdated);
    } catch (error) {
      notify.error(errorMessage(error, accountMessages.profileUpdateFailed));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <div className="d-flex flex-column flex-sm-row align-items-sm-center gap-3 mb-4">
        <ProfileAvatar
          src={preview ?? profile.profileImage}
          alt={preview ? 'Preview of the new profile picture' : `Profile picture of ${profile.userName}`}
        />
        <div className="flex-grow-1">
          <label htmlFor={fileId} className="form-label">
            Profile Image
          </label>
          <input
            id={fileId}
            type="file"
            name="file"
            accept="image/png,image/jpeg"
            className={`form-control${fileError ? ' is-invalid' : ''}`}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${fileId}-hint${fileError ? ` ${fileId}-error` : ''}`}
            onChange={onPick}
          />
          <div id={`${fileId}-hint`} className="form-text">
            PNG or JPG, at most 2 MB.
          </div>
          {fileError ? (
            <div id={`${fileId}-error`} className="invalid-feedback d-block">
              {fileError}
            </div>
          ) : null}
        </div>
      </div>
      <div className="row">
        <div className="col-md-6">
          <FormField
            label="First Name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...register('firstName')}
          />
        </div>
        <div className="col-md-6">
          <FormField
            label="Last Name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...register('lastName')}
          />
        </div>
        <div className="col-md-6">
          <FormField
            label="User Name"
            required
            autoComplete="username"
            error={errors.userName?.message}
            {...register('userName')}
          />
        </div>
        <div className="col-md-6">
          <FormField
            label="Email"
            type="email"
            name="email"
            value={profile.email}
            readOnly
            hint="The email cannot be changed."
          />
        </div>
        <div className="col-md-6">
          <FormField
            label="Phone Number"
            required
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            error={errors.phone?.message}
            {...register('phone')}
          />
        </div>
      </div>
      <button type="submit" className="btn btn-primary" disabled={update.isPending}>
        {update.isPending ? 'Saving...' : 'Update Profile'}
      </button>
    </form>
  );
}
