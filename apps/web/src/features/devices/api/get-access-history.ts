import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AccessHistory } from '@app/contract/masking';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';
import { accessHistoryKeys } from './keys.ts';
import type { RevealKind } from './reveal-contact.ts';

export type AccessHistoryParams = { kind: RevealKind; id: string; page: number; limit: number };

/** GET patient|doctor/{id}/access-history: who viewed or revealed the record, newest first. */
export async function getAccessHistory(
  { kind, id, page, limit }: AccessHistoryParams,
  signal?: AbortSignal,
): Promise<AccessHistory | null> {
  const path = kind === 'patient' ? apiPaths.patientAccessHistory : apiPaths.doctorAccessHistory;
  return (
    await apiClient.getList<AccessHistory>(path(encodeURIComponent(id)), { query: { page, limit }, signal })
  ).data;
}

export const useAccessHistory = (params: AccessHistoryParams) =>
  useQuery({
    queryKey: accessHistoryKeys.list(params),
    queryFn: ({ signal }) => getAccessHistory(params, signal),
    placeholderData: keepPreviousData,
  });
