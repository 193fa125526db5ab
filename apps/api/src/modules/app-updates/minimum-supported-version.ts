import type { AlarmsConfig } from '#api/config-alarms.ts';

/**
 * The one place that says which app versionCode is the lowest still supported (null: none), read by
 * the app-version alarm rule. Today it is MIN_SUPPORTED_APP_VERSION_CODE; staged rollouts (issue 16
 * item 3) will answer their own minimum from here, which is why it is asynchronous already.
 */
export function createMinimumSupportedVersion({
  config,
}: {
  config: Pick<AlarmsConfig, 'minSupportedAppVersionCode'>;
}): () => Promise<number | null> {
  return async () => config.minSupportedAppVersionCode ?? null;
}
