import type { LatestUpdate } from '@app/contract/app-updates';
import { ApiError } from './http.ts';

/** What the update check needs of the machine: its client, the release it runs, its log. */
type Updatable = {
  client: { checkForUpdate(appName: string, versionCode: number): Promise<LatestUpdate> };
  app: { code: number; name: string };
  appLog: { add(text: string): void };
};

/**
 * The app's update check (docs/device-api.md §4a): an offered update is installed at once (the app
 * restarts on the new release and its next heartbeat reports it); a release that respects
 * maintenance windows may say `waiting` instead, and the app asks again later. Answers what
 * happened; no release for the app yet (404) is nothing to do.
 */
export async function checkForUpdate(
  machine: Updatable,
  appName: string,
): Promise<'updated' | 'waiting' | 'current'> {
  let answer: LatestUpdate;
  try {
    answer = await machine.client.checkForUpdate(appName, machine.app.code);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 'current';
    throw err;
  }
  if (answer.waiting) {
    machine.appLog.add(
      `Update to ${answer.versionName} waits: ${answer.waiting === 'window' ? 'outside the maintenance window' : 'a treatment runs'}`,
    );
    return 'waiting';
  }
  if (!answer.updateAvailable) return 'current';
  machine.app = { code: answer.versionCode, name: answer.versionName };
  machine.appLog.add(
    `Updated to ${answer.versionName} (${answer.versionCode})${answer.forceUpdate ? ', forced' : ''}`,
  );
  return 'updated';
}
