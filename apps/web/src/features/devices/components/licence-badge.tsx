import { licenceText, type Device } from '@app/contract/devices';
import { licenceStateLabels, type LicenceState } from '@app/contract/licences';
import { StatusBadge, type StatusTone } from '#web/components/status-badge.tsx';
import { formatDate } from '#web/lib/format.ts';

const tones: Record<LicenceState, StatusTone> = {
  active: 'success',
  grace: 'warning',
  lapsed: 'danger',
  exempt: 'info',
  unlicensed: 'secondary',
};

/** A licence state as a pill, in the tone of how much it needs an admin (issue 34). */
export function LicenceBadge({ state, label }: { state: LicenceState; label?: string }) {
  return <StatusBadge label={label ?? licenceStateLabels[state]} tone={tones[state]} />;
}

/** Device Management's Licence cell: the state and its date, e.g. "In grace until 12-03-2027". */
export function LicenceCell({ device }: { device: Device }) {
  return <LicenceBadge state={device.licenceState} label={licenceText(device, (iso) => formatDate(iso))} />;
}
