import { useMutation } from '@tanstack/react-query';
import type { Envelope } from '@app/contract/envelope';
import { settingsPaths, type SettingsChangeBody, type SettingValues } from '@app/contract/machine-settings';
import { apiClient } from '#web/lib/api-client.ts';

type GroupSettings = { values: SettingValues; machinesChanged: number };
type ChangeSettings = { id: string; changes: SettingsChangeBody };

/**
 * PATCH groups/{id}/settings (groups.manage): a value sets it on the group's machines now, null
 * removes the group's. The list shows no setting, so nothing of it is read again.
 */
export const changeGroupSettings = ({ id, changes }: ChangeSettings) =>
  apiClient.patch<GroupSettings>(settingsPaths.group(encodeURIComponent(id)), changes);

export const useChangeGroupSettings = () =>
  useMutation<Envelope<GroupSettings>, Error, ChangeSettings>({ mutationFn: changeGroupSettings });
