import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** Revokes the session on the server. A failure is ignored: the local session is cleared anyway. */
export async function signOut() {
  try {
    await apiClient.post<null>(apiPaths.logout, undefined, { ignoreUnauthorized: true });
  } catch {
    // Offline or already revoked: nothing more to do.
  }
}
