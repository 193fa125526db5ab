import { useCallback, useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@app/contract/paths';
import type { ColorMode, Preferences } from '@app/contract/preferences';
import { apiClient, notifyError } from '#web/lib/api-client.ts';
import { applyColorMode, cachedColorMode, darkSchemeQuery } from '#web/lib/color-mode.ts';
import { preferenceKeys, preferencesQuery } from '#web/lib/list-preferences.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';

/** The admin's colour mode: the server's once read, this browser's last one until then. */
export function useColorMode(): ColorMode {
  const { data } = useQuery(preferencesQuery);
  return data?.colorMode ?? cachedColorMode();
}

/** Keeps <html data-bs-theme> on the admin's mode; 'system' follows the browser's setting live. */
export function useApplyColorMode() {
  const mode = useColorMode();
  const systemDark = useMediaQuery(darkSchemeQuery);
  useEffect(() => applyColorMode(mode, systemDark), [mode, systemDark]);
}

/** Saves the mode: shown at once, sent in the background; a failure is toasted and undone. */
export function useSaveColorMode() {
  const queryClient = useQueryClient();
  const { mutate } = useMutation({
    mutationFn: (colorMode: ColorMode) => apiClient.put(apiPaths.colorMode, { colorMode }),
  });
  return useCallback(
    (colorMode: ColorMode) => {
      const setMode = (mode: ColorMode) =>
        queryClient.setQueryData<Preferences>(preferenceKeys.all, (current) =>
          current ? { ...current, colorMode: mode } : current,
        );
      const before = queryClient.getQueryData<Preferences>(preferenceKeys.all)?.colorMode;
      setMode(colorMode);
      // Before the preferences are read there is nothing to show it in: the answer brings it.
      if (!before) applyColorMode(colorMode);
      const reread = () => void queryClient.invalidateQueries({ queryKey: preferenceKeys.all });
      mutate(colorMode, {
        onSuccess: () => (before ? undefined : reread()),
        onError: (error) => {
          if (before) setMode(before);
          else reread();
          notifyError(error);
        },
      });
    },
    [queryClient, mutate],
  );
}
