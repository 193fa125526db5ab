import type { AlarmsConfig } from '#api/config-alarms.ts';

/**
 * The one place that says which app versionCode is the lowest still supported (null: none), read by
 * the app-version alarm rule and by the update check, which forces a machine below it to update
 * (decision 051). Today it is MIN_SUPPORTED_APP_VERSION_CODE; asynchronous so that it can come
 * from the database later without changing its readers.
 */
export function createMinimumSupportedVersion({
  config,
}: {
  config: Pick<AlarmsConfig, 'minSupportedAppVersionCode'>;
}): () => Promise<number | null> {
  return async () => config.minSupportedAppVersionCode ?? null;
}
