import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { settingsPaths, type SettingsChangeBody, type SettingValues } from '@app/contract/machine-settings';
import { apiClient } from '#web/lib/api-client.ts';

type GroupSettings = { values: SettingValues; machinesChanged: number };
/** A group's id, or null for the fleet's defaults. */
type ChangeSettings = { id: string | null; changes: SettingsChangeBody };

/**
 * PATCH groups/{id}/settings, or the fleet's PATCH settings (groups.manage): a value sets it (on a
 * group's machines now), null removes it. The list shows no setting, so nothing of it is read again.
 */
export const changeGroupSettings = ({ id, changes }: ChangeSettings) =>
  apiClient.patch<GroupSettings>(
    id === null ? settingsPaths.fleet : settingsPaths.group(encodeURIComponent(id)),
    changes,
  );

export const useChangeGroupSettings = () =>
  useMutation<Envelope<GroupSettings>, Error, ChangeSettings>({ mutationFn: changeGroupSettings });
