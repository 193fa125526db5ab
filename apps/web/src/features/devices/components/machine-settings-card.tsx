import { useState } from 'react';
import type { Device } from '@app/contract/devices';
import {
  languageLabels,
  settingKeys,
  settingLabels,
  type MachineSettings,
  type MachineSettingsView,
  type SettingKey,
} from '@app/contract/machine-settings';
import { SectionCard } from '#web/components/details-card.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useChangeMachineSettings, useMachineSettings } from '../api/machine-settings.ts';
import { MachineSettingsFormModal } from './machine-settings-form-modal.tsx';

const inWords: { [K in SettingKey]: (value: MachineSettings[K]) => string } = {
  heartbeatSeconds: (seconds) => `${seconds} s`,
  logLevel: (level) => level,
  language: (language) => languageLabels[language],
  timeZone: (zone) => zone,
  licenceOfflineDays: (days) => (days === 1 ? '1 day' : `${days} days`),
};
const valueInWords = <K extends SettingKey>(key: K, value: MachineSettings[K]) => inWords[key](value);

function sourceInWords(source: MachineSettingsView['sources'][string] | undefined) {
  switch (source?.source) {
    case 'machine':
      return 'This machine';
    case 'group':
      return `Group ${source.group?.name ?? ''}`.trim();
    case 'fleet':
      return 'Fleet default';
    default:
      return 'Default';
  }
}

/** Whether the machine runs what it should: drift (desired ≠ applied) since when, else the version it applied. */
function appliedInWords(view: MachineSettingsView) {
  if (view.driftSince) return `Not applied yet: waiting since ${formatDateTime(view.driftSince)}`;
  if (view.appliedVersion !== null) return `Applied (version ${view.appliedVersion})`;
  return view.version === 0 ? 'Defaults' : `Not applied yet (version ${view.version})`;
}

/**
 * Device Details "Settings" (issue 37 item 3): each setting of the machine's app, its effective
 * value and where it comes from (the catalogue's default, the fleet's, a group's or the machine's
 * own), and whether the machine has applied them (drift). Changing the machine's own values needs
 * devices.edit; the fleet's and the groups' are set elsewhere.
 */
export function MachineSettingsCard({ device }: { device: Device }) {
  const mayEdit = useCan('devices.edit');
  const query = useMachineSettings(device._id);
  const save = useChangeMachineSettings(device._id);
  const [editing, setEditing] = useState(false);
  const view = query.data;

  let body;
  if (query.isPending) body = <Spinner label="Loading settings..." />;
  else if (query.isError || !view)
    body = (
      <LoadError
        error={query.error}
        fallback="The settings could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  else body = <SettingsFacts view={view} />;

  return (
    <SectionCard
      title="Settings"
      actions={
        view && mayEdit ? (
          <button type="button" className="btn btn-sm btn-primary" onClick={() => setEditing(true)}>
            Change settings
          </button>
        ) : null
      }
    >
      {body}
      {mayEdit && view ? (
        <MachineSettingsFormModal
          machineNumber={device.machineNumber}
          own={view.own}
          show={editing}
          onClose={() => setEditing(false)}
          onSave={(changes) => save.mutateAsync(changes)}
          pending={save.isPending}
        />
      ) : null}
    </SectionCard>
  );
}

function SettingsFacts({ view }: { view: MachineSettingsView }) {
  return (
    <>
      {/* Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too. */}
      <div
        className="table-responsive"
        tabIndex={0}
        role="region"
        aria-label="Values and where they come from"
      >
        <table className="table table-sm align-middle mb-3" aria-label="The app's settings">
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {settingKeys.map((key) => (
              <tr key={key}>
                <th scope="row" className="fw-semibold">
                  {settingLabels[key].label}
                </th>
                <td className="text-break">{valueInWords(key, view.effective[key])}</td>
                <td>{sourceInWords(view.sources[key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mb-0">{appliedInWords(view)}</p>
    </>
  );
}
