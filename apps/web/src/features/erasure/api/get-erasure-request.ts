import { useQuery } from '@tanstack/react-query';
import type { ErasureRequest } from '@app/contract/erasure';
import { erasurePaths } from '@app/contract/erasure-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { erasureKeys } from './keys.ts';

export async function getErasureRequest(id: string, signal?: AbortSignal): Promise<ErasureRequest> {
  const response = await apiClient.get<ErasureRequest>(erasurePaths.one(encodeURIComponent(id)), { signal });
  return response.data;
}

export const useErasureRequest = (id: string) =>
  useQuery({ queryKey: erasureKeys.detail(id), queryFn: ({ signal }) => getErasureRequest(id, signal) });
