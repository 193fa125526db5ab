import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ApkManifest } from '@app/contract/apk-manifest';
import {
  appUpdateFormSchema,
  appUpdateMessages,
  updateTypeLabels,
  updateTypes,
  type AppUpdateForm,
  type AppUpdateFormInput,
} from '@app/contract/app-updates';
import { rolloutStages } from '@app/contract/app-update-rollouts';
import { FormField } from '#web/components/form-field.tsx';
import { Modal } from '#web/components/modal.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { formatBytes } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useAddAppUpdate } from '../api/add-app-update.ts';
import { readApkFile } from '../utils/read-apk-file.ts';

export type AppUpdateFormModalProps = { show: boolean; onClose: () => void };

const blank = {
  appName: '',
  versionCode: '',
  versionName: '',
  remark: '',
  updateDesc: '',
  updateType: '',
} as Partial<AppUpdateFormInput>;

/** The picked file's manifest, or the message that it has none readable (the server's words). */
const inspect = (file: File): Promise<ApkManifest | string> =>
  readApkFile(file).catch(
    (error: unknown) =>
      `${appUpdateMessages.manifestUnreadable} (${error instanceof Error ? error.message : String(error)})`,
  );

const describeManifest = (m: ApkManifest) =>
  `package ${m.packageName}, version code ${m.versionCode}${m.versionName ? `, version name ${m.versionName}` : ''}`;

/**
 * Add App Update (docs/product.md §2.14, §5.6): static backdrop, every field required, an .apk file; the upload shows
 * its progress and the submit button stays disabled until it ends. Cancel stops an upload under way.
 * Picking the APK reads its manifest in the browser and fills the version fields (and an empty App
 * Name with the package): the server refuses a form that disagrees with the file. A file without a
 * readable manifest is refused under its field. Mounted only while open, so every opening starts blank.
 */
export function AppUpdateFormModal({ show, onClose }: AppUpdateFormModalProps) {
  const add = useAddAppUpdate();
  const [percent, setPercent] = useState<number | null>(null);
  const [upload, setUpload] = useState<AbortController | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    getValues,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<AppUpdateFormInput, unknown, AppUpdateForm>({
    resolver: zodResolver(appUpdateFormSchema),
    defaultValues: blank,
  });
  const uploading = add.isPending || isSubmitting;
  // The input holds a FileList; the schema takes its first file.
  const files = useWatch({ control, name: 'apk' }) as FileList | undefined;
  const chosen = files?.[0];
  // The manifest of the file last picked; a newer pick makes an older reading's answer moot.
  const [manifest, setManifest] = useState<ApkManifest | null>(null);
  const reading = useRef<{ file: File; result: Promise<ApkManifest | string> } | null>(null);
  const apkField = register('apk');

  const pickApk = async (event: ChangeEvent<HTMLInputElement>) => {
    await apkField.onChange(event);
    const file = event.target.files?.[0];
    setManifest(null);
    // Another kind of file is the schema's to refuse ('Only .apk files are allowed').
    if (!file || !/\.apk$/i.test(file.name)) {
      reading.current = null;
      return;
    }
    const result = inspect(file);
    reading.current = { file, result };
    const read = await result;
    if (reading.current?.file !== file) return;
    if (typeof read === 'string') {
      setError('apk', { type: 'manifest', message: read });
      return;
    }
    clearErrors('apk');
    setManifest(read);
    const filled = { shouldValidate: true, shouldDirty: true };
    setValue('versionCode', String(read.versionCode), filled);
    // A versionName kept in a resource is not in the manifest: the admin types it.
    if (read.versionName) setValue('versionName', read.versionName, filled);
    if (!getValues('appName')) setValue('appName', read.packageName, filled);
  };

  const close = () => {
    upload?.abort();
    onClose();
  };

  const save = async (values: AppUpdateForm) => {
    const file = values.apk as File;
    const read = reading.current?.file === file ? await reading.current.result : await inspect(file);
    if (typeof read === 'string') {
      setError('apk', { type: 'manifest', message: read });
      return;
    }
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
          as="select"
          label="First Stage"
          wrapperClassName="col-md-6 mb-3"
          hint="The share of machines offered this release first; widen it later from the list"
          error={errors.rolloutPercent?.message}
          {...register('rolloutPercent')}
        >
          <option value="">Every machine (100 %)</option>
          {rolloutStages
            .filter((stage) => stage < 100)
            .map((stage) => (
              <option key={stage} value={String(stage)}>
                {stage} % of the machines
              </option>
            ))}
        </FormField>
        <div className="col-md-6 mb-3 d-flex flex-column justify-content-center">
          <div className="form-check">
            <input
              className="form-check-input"
              type="checkbox"
              id="app-update-respects-window"
              aria-describedby="app-update-respects-window-hint"
              {...register('respectsWindow')}
            />
            <label className="form-check-label" htmlFor="app-update-respects-window">
              Respect maintenance windows
            </label>
          </div>
          <div id="app-update-respects-window-hint" className="form-text">
            A machine gets it only inside its window and when no treatment runs
          </div>
        </div>
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
          hint={
            chosen
              ? `${chosen.name} (${formatBytes(chosen.size)})${manifest ? `: ${describeManifest(manifest)}` : ''}`
              : 'An Android package (.apk)'
          }
          disabled={uploading}
          {...apkField}
          onChange={(event) => void pickApk(event)}
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
