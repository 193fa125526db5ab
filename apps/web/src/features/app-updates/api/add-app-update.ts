import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppUpdate, AppUpdateForm } from '@app/contract/app-updates';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { upload, type UploadProgress } from '#web/lib/api-client.ts';
import { appUpdateKeys } from './keys.ts';

export type AddAppUpdateInput = {
  values: AppUpdateForm & { apk: File };
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/** POST system/updates as multipart: the fields first (the server checks them before storing the file), then the APK. */
export function addAppUpdate({ values, onProgress, signal }: AddAppUpdateInput) {
  const form = new FormData();
  form.append('appName', values.appName);
  form.append('versionCode', String(values.versionCode));
  form.append('versionName', values.versionName);
  form.append('remark', values.remark);
  form.append('updateDesc', values.updateDesc);
  form.append('updateType', String(values.updateType));
  if (values.rolloutPercent !== undefined) form.append('rolloutPercent', String(values.rolloutPercent));
  if (values.respectsWindow) form.append('respectsWindow', 'true');
  form.append('apk', values.apk, values.apk.name);
  return upload<AppUpdate>(apiPaths.systemUpdates, form, { onProgress, signal });
}

export function useAddAppUpdate() {
  const queryClient = useQueryClient();
  return useMutation<Envelope<AppUpdate>, Error, AddAppUpdateInput>({
    mutationFn: addAppUpdate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appUpdateKeys.lists() }),
  });
}
