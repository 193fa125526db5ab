import type { Device } from '@app/contract/devices';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { formatDateTime, NA } from '#web/lib/format.ts';

type CheckIn = Pick<Device, 'lastSeenAt' | 'online' | 'appVersionCode' | 'appVersionName'>;

/** The machine's last call to the device API in the admin's time zone; N/A when it never called. */
export const lastSeenText = (device: Pick<Device, 'lastSeenAt'>) => formatDateTime(device.lastSeenAt);

/** "versionName (versionCode)" as the app reported it; N/A before its first check-in. */
export function appVersionText({ appVersionCode, appVersionName }: CheckIn) {
  if (appVersionName && appVersionCode !== null) return `${appVersionName} (${appVersionCode})`;
  if (appVersionName) return appVersionName;
  return appVersionCode !== null ? String(appVersionCode) : NA;
}

/** Online / Offline (quiet longer than the server's DEVICE_OFFLINE_MINUTES) / Never seen. */
export function OnlineBadge({ device }: { device: CheckIn }) {
  if (device.lastSeenAt === null) return <StatusBadge label="Never seen" tone="secondary" />;
  return device.online ? (
    <StatusBadge label="Online" tone="success" />
  ) : (
    <StatusBadge label="Offline" tone="secondary" />
  );
}
