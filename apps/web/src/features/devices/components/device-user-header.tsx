import { useLocation } from 'react-router';
import { paths } from '#web/lib/paths.ts';
import { BackButton } from '#web/components/back-button.tsx';
import { Breadcrumbs } from '#web/components/breadcrumbs.tsx';
import { PageHeader } from '#web/components/page-header.tsx';

/** The device id the previous page put in navigation state (docs/product.md §2.7), if any. */
export function useDeviceIdFromState(): string | undefined {
  const state: unknown = useLocation().state;
  const deviceId =
    typeof state === 'object' && state !== null ? (state as { deviceId?: unknown }).deviceId : undefined;
  return typeof deviceId === 'string' ? deviceId : undefined;
}

/** Title, back button and breadcrumbs Device Management › Device View › this page. */
export function DeviceUserHeader({ title }: { title: string }) {
  const deviceId = useDeviceIdFromState();
  const deviceView = deviceId ? paths.deviceDetails.href({ id: deviceId }) : undefined;
  return (
    <PageHeader
      title={title}
      actions={<BackButton to={deviceView} state={deviceId ? { deviceId } : undefined} />}
    >
      <Breadcrumbs
        items={[
          { label: 'Device Management', to: paths.devices.href() },
          { label: 'Device View', to: deviceView, state: { deviceId } },
          { label: title },
        ]}
      />
    </PageHeader>
  );
}
