import { useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  appUpdateFormSchema,
  appUpdateMessages,
  updateTypeLabels,
  updateTypes,
  type AppUpdateForm,
  type AppUpdateFormInput,
} from '@app/contract/app-updates';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useAddAppUpdate } from '../api/add-app-update.ts';

export type AppUpdateFormModalProps = { show: boolean; onClose: () => void };

const blank = {
  appName: '',
  versionCode: '',
  versionName: '',
  remark: '',
  updateDesc: '',
  updateType: '',
} as Partial<AppUpdateFormInput>;

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * Add App Update (docs/product.md §2.14, §5.6): static backdrop, every field required, an .apk file; the upload shows
 * its progress and the submit button stays disabled until it ends. Cancel stops an upload under way.
 * Mounted only while open, so every opening starts blank.
 */
export function AppUpdateFormModal({ show, onClose }: AppUpdateFormModalProps) {
  const add = useAddAppUpdate();
  const [percent, setPercent] = useState<number | null>(null);
  const [upload, setUpload] = useState<AbortController | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<AppUpdateFormInput, unknown, AppUpdateForm>({
    resolver: zodResolver(appUpdateFormSchema),
    defaultValues: blank,
  });
  const uploading = add.isPending || isSubmitting;
  // The input holds a FileList; the schema takes its first file.
  const files = useWatch({ control, name: 'apk' }) as FileList | undefined;
  const chosen = files?.[0];

  const close = () => {
    upload?.abort();
    onClose();
  };

  const save = async (values: AppUpdateForm) => {
    const controller = new AbortController();
    setUpload(controller);
    setPercent(0);
    try {
      const response = await add.mutateAsync({
        values: values as AppUpdateForm & { apk: File },
        onProgress: (p) => setPercent(p.percent),
        signal: controller.signal,
      });
      notify.success(response.msg || appUpdateMessages.added);
      onClose();
    } catch (error) {
      setPercent(null);
      notifyError(error);
    } finally {
      setUpload(null);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => void handleSubmit(save)(event);

  return (
    <Modal
      show={show}
      onClose={close}
      title="Add App Update"
      size="lg"
      staticBackdrop
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" form="app-update-form" className="btn btn-primary" disabled={uploading}>
            {uploading ? 'Uploading...' : 'Submit'}
          </button>
        </>
      }
    >
      <form id="app-update-form" noValidate onSubmit={submit} className="row">
        <FormField
          label="App Name"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={errors.appName?.message}
          {...register('appName')}
        />
        <FormField
          as="select"
          label="Update Type"
          required
          wrapperClassName="col-md-6 mb-3"
          error={errors.updateType?.message}
          {...register('updateType')}
        >
          <option value="">Select update type</option>
          {updateTypes.map((type) => (
            <option key={type} value={String(type)}>
              {updateTypeLabels[type]}
            </option>
          ))}
        </FormField>
        <FormField
          label="Version Code"
          required
          inputMode="numeric"
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={errors.versionCode?.message}
          {...register('versionCode')}
        />
        <FormField
          label="Version Name"
          required
          autoComplete="off"
          wrapperClassName="col-md-6 mb-3"
          error={errors.versionName?.message}
          {...register('versionName')}
        />
        <FormField
          label="Remark"
          required
          autoComplete="off"
          wrapperClassName="col-12 mb-3"
          error={errors.remark?.message}
          {...register('remark')}
        />
        <FormField
          as="textarea"
          label="Update Description"
          required
          rows={3}
          wrapperClassName="col-12 mb-3"
          error={errors.updateDesc?.message}
          {...register('updateDesc')}
        />
        <FormField
          type="file"
          label="APK File"
          required
          accept=".apk,application/vnd.android.package-archive"
          wrapperClassName="col-12 mb-3"
          error={errors.apk?.message}
          hint={chosen ? `${chosen.name} (${formatSize(chosen.size)})` : 'An Android package (.apk)'}
          disabled={uploading}
          {...register('apk')}
        />
        {percent !== null ? (
          <div className="col-12">
            <div className="d-flex justify-content-between small mb-1">
              <span>{percent < 100 ? 'Uploading APK...' : 'Checking and saving...'}</span>
              <span>{percent}%</span>
            </div>
            <div
              className="progress"
              role="progressbar"
              aria-label="Upload progress"
              aria-valuenow={percent}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div
                className="progress-bar progress-bar-striped progress-bar-animated"
                style={{ width: `${percent}%` }}
              >
                {percent}%
              </div>
            </div>
          </div>
        ) : null}
      </form>
    </Modal>
  );
}
