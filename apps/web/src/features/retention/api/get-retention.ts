import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LegalHoldList, RetentionRunList, RetentionSchedule } from '@app/contract/retention';
import { retentionPaths } from '@app/contract/retention-texts';
import { apiClient } from '#web/lib/api-client.ts';
import { retentionKeys } from './keys.ts';

type Page = { page: number; limit: number };

export const useRetentionSchedule = () =>
  useQuery({
    queryKey: retentionKeys.schedule(),
    queryFn: async ({ signal }) =>
      (await apiClient.get<RetentionSchedule>(retentionPaths.schedule, { signal })).data,
  });

export const useRetentionRuns = (params: Page) =>
  useQuery({
    queryKey: retentionKeys.runs(params),
    queryFn: async ({ signal }) =>
      (await apiClient.getList<RetentionRunList>(retentionPaths.runs, { query: params, signal })).data,
    placeholderData: keepPreviousData,
  });

export const useLegalHolds = (params: Page) =>
  useQuery({
    queryKey: retentionKeys.holds(params),
    queryFn: async ({ signal }) =>
      (await apiClient.getList<LegalHoldList>(retentionPaths.holds, { query: params, signal })).data,
    placeholderData: keepPreviousData,
  });
