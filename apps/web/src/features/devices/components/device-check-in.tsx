import { appVersionText, type Device } from '@app/contract/devices';
import { PackageName } from '#web/components/package-name.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { formatDateTime, NA } from '#web/lib/format.ts';

type CheckIn = Pick<Device, 'lastSeenAt' | 'online'>;
type AppVersion = Pick<Device, 'appPackage' | 'appVersionCode' | 'appVersionName'>;

/** The machine's last call to the device API in the admin's time zone; N/A when it never called. */
export const lastSeenText = (device: Pick<Device, 'lastSeenAt'>) => formatDateTime(device.lastSeenAt);

/**
 * "com.treatment.device 1.3.0 (40)" as the app reported it, the package only when it named one (the
 * export writes the same words); N/A before its first check-in. The package may break after its dots.
 */
export function AppVersionText({ device }: { device: AppVersion }) {
  const version = appVersionText({ ...device, appPackage: null });
  if (version === null) return NA;
  if (!device.appPackage) return version;
  return (
    <>
      <PackageName name={device.appPackage} /> {version}
    </>
  );
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
