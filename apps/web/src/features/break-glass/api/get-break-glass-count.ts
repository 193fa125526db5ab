import type { BreakGlassCount } from '@app/contract/break-glass';
import { breakGlassPaths } from '@app/contract/break-glass-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { bellCountOptions } from '#web/lib/bell-count.ts';
import { breakGlassKeys } from './keys.ts';

async function getBreakGlassCount(signal?: AbortSignal): Promise<BreakGlassCount> {
  const response = await apiClient.get<BreakGlassCount>(breakGlassPaths.count, { signal });
  return response.data;
}

/** The bell's count of uses awaiting sign-off, read again after a sign-off. */
export const breakGlassCountQueryOptions = () => bellCountOptions(breakGlassKeys.count(), getBreakGlassCount);
