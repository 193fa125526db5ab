import { queryOptions, useQuery } from '@tanstack/react-query';
import { jobsPaths, type JobsList } from '@app/contract/jobs';
import { apiClient } from '#web/lib/api-client.ts';
import { jobsKeys } from './keys.ts';

/** Read again this often while the screen is open: runs come and go by themselves. */
const refreshMs = 15_000;

export async function getJobs(signal?: AbortSignal): Promise<JobsList | null> {
  const response = await apiClient.getList<JobsList>(jobsPaths.list, { signal });
  return response.data;
}

export const jobsQueryOptions = () =>
  queryOptions({
    queryKey: jobsKeys.lists(),
    queryFn: ({ signal }) => getJobs(signal),
    refetchInterval: refreshMs,
  });

export const useJobs = () => useQuery(jobsQueryOptions());
