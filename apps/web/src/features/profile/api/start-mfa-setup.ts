import { useMutation } from '@tanstack/react-query';
import type { MfaSetup } from '@app/contract/mfa';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** POST profile/mfa/setup: a new secret (QR code and manual key); nothing changes until it is confirmed. */
export const startMfaSetup = async () => (await apiClient.post<MfaSetup>(apiPaths.profileMfaSetup)).data;

export const useStartMfaSetup = () => useMutation({ mutationFn: startMfaSetup });
