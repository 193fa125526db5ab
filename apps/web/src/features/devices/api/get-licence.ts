import { queryOptions, useQuery } from '@tanstack/react-query';
import { licencePaths, type Licence } from '@app/contract/licences';
import { apiClient } from '#web/lib/api-client.ts';
import { licenceKeys } from './keys.ts';

/** GET machine/{id}/licence: the Licence card's state, dates, exemption and history (decision 068). */
export async function getLicence(id: string, signal?: AbortSignal): Promise<Licence> {
  const response = await apiClient.get<Licence>(licencePaths.deviceLicence(encodeURIComponent(id)), {
    signal,
  });
  return response.data;
}

const licenceQueryOptions = (id: string) =>
  queryOptions({ queryKey: licenceKeys.detail(id), queryFn: ({ signal }) => getLicence(id, signal) });

export const useLicence = (id: string) => useQuery(licenceQueryOptions(id));
