import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { profileKeys } from '#web/features/profile/api/keys.ts';
import { profileQueryOptions } from '#web/features/profile/api/get-profile.ts';
import { mergeProfile, getSession } from '#web/lib/session-store.ts';

/**
 * Keeps the session's copy of the role (what the sidebar and buttons follow) up to date: the sign-in
 * answer's copy goes stale when someone changes the role. The profile is read once when the console
 * loads and again whenever the API refuses a permission (`refused`), and a changed role is stored.
 */
export function useRolePermissionsRefresh(refused: string | null) {
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...profileQueryOptions(), meta: { silentError: true } });

  useEffect(() => {
    if (refused) void queryClient.invalidateQueries({ queryKey: profileKeys.detail('me') });
  }, [refused, queryClient]);

  useEffect(() => {
    if (!data) return;
    const stored = getSession().details?.role;
    if (JSON.stringify(stored ?? null) !== JSON.stringify(data.role)) mergeProfile({ role: data.role });
  }, [data]);
}
