import type { AlarmCount } from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { bellCountOptions } from '#web/lib/bell-count.ts';
import { alarmKeys } from './keys.ts';

async function getAlarmCount(signal?: AbortSignal): Promise<AlarmCount> {
  const response = await apiClient.get<AlarmCount>(apiPaths.alarmsCount, { signal });
  return response.data;
}

/** The bell's count: one row on the server, read again after an alarm is acknowledged or resolved. */
export const alarmCountQueryOptions = () => bellCountOptions(alarmKeys.count(), getAlarmCount);
