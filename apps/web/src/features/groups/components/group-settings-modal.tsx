import { useId, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Group } from '@app/contract/groups';
import {
  appLanguages,
  languageLabels,
  logLevels,
  settingKeys,
  settingLabels,
  settingsChangeBodySchema,
  settingsLimits,
  settingsMessages,
  type SettingKey,
  type SettingsChangeBody,
} from '@app/contract/machine-settings';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useChangeGroupSettings } from '../api/change-group-settings.ts';

/*
 * A group's settings of the machines' app (issue 37 item 3), written on its machines now. Every
 * setting is optional: left as it is, it is not sent; "Clear" sends null, which removes the group's
 * value so the fleet's or the default applies again (a machine's own value still wins).
 */

const clear = '(clear)';
const leave = 'Leave as is';
const clearText = "Clear (the fleet's value or the default applies)";
const zones = Intl.supportedValuesOf('timeZone');

/** A choice of a select: empty leaves it, `clear` is null. */
const chosen = (value: string) => (value === '' ? undefined : value === clear ? null : value);

/** A number typed: empty leaves it, cleared is null (the typed value is then not sent). */
const typed = (text: string, cleared: boolean) =>
  cleared ? null : text.trim() === '' ? undefined : Number(text.trim());

const formSchema = z.object({
  settings: z
    .object({
      heartbeatSeconds: z.string(),
      clearHeartbeat: z.boolean(),
      logLevel: z.string(),
      language: z.string(),
      timeZone: z.string(),
      licenceOfflineDays: z.string(),
      clearLicenceOfflineDays: z.boolean(),
    })
    .transform(
      ({ clearHeartbeat, heartbeatSeconds, clearLicenceOfflineDays, licenceOfflineDays, ...rest }) => {
        const values: Record<SettingKey, unknown> = {
          heartbeatSeconds: typed(heartbeatSeconds, clearHeartbeat),
          logLevel: chosen(rest.logLevel),
          language: chosen(rest.language),
          timeZone: chosen(rest.timeZone),
          licenceOfflineDays: typed(licenceOfflineDays, clearLicenceOfflineDays),
        };
        // Only what changes is sent: an absent key is left as it is.
        return Object.fromEntries(
          Object.entries(values).filter(([, value]) => value !== undefined),
        ) as SettingsChangeBody;
      },
    )
    .pipe(settingsChangeBodySchema),
});
type SettingsForm = z.input<typeof formSchema>;

const blank: SettingsForm = {
  settings: {
    heartbeatSeconds: '',
    clearHeartbeat: false,
    logLevel: '',
    language: '',
    timeZone: '',
    licenceOfflineDays: '',
    clearLicenceOfflineDays: false,
  },
};
/** The settings typed as numbers, each with its Clear box. */
type NumberKey = 'heartbeatSeconds' | 'licenceOfflineDays';
const clearOf = {
  heartbeatSeconds: { field: 'clearHeartbeat', label: 'Clear the heartbeat interval' },
  licenceOfflineDays: { field: 'clearLicenceOfflineDays', label: 'Clear the offline licence validity' },
} as const;

/** The setting a 400 names (`timeZone`); one that names none ("name at least one") goes above them all. */
const fieldOfError = (error: ApiError) => {
  if (error.status !== 400) return undefined;
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  if (path === '') return 'settings';
  return settingKeys.includes(path as SettingKey) ? (`settings.${path as SettingKey}` as const) : undefined;
};

/** Whose settings: a group's, or the fleet's defaults (every machine that sets none nearer). */
export type SettingsLevel = { group: Group } | { fleet: true } | null;

export function GroupSettingsModal({ level, onClose }: { level: SettingsLevel; onClose: () => void }) {
  const change = useChangeGroupSettings();
  const show = level !== null;
  const group = level && 'group' in level ? level.group : null;
  const form = useFormModal({ show, resolver: zodResolver(formSchema), blank });
  const error = (key: SettingKey) => form.getFieldState(`settings.${key}`, form.formState).error?.message;
  const nothing = form.formState.errors.settings?.message;
  const clearing = {
    heartbeatSeconds: form.watch('settings.clearHeartbeat'),
    licenceOfflineDays: form.watch('settings.clearLicenceOfflineDays'),
  };
  const clearId = useId();
  const numberField = (key: NumberKey) => (
    <>
      <FormField
        label={settingLabels[key].label}
        hint={settingLabels[key].hint}
        error={error(key)}
        type="number"
        inputMode="numeric"
        min={settingsLimits[key].min}
        max={settingsLimits[key].max}
        step={1}
        autoComplete="off"
        // Cleared, the typed value is not sent.
        readOnly={clearing[key]}
        wrapperClassName="mb-1"
        {...form.register(`settings.${key}`)}
      />
      <div className="form-check mb-3">
        <input
          id={`${clearId}-${key}`}
          type="checkbox"
          className="form-check-input"
          {...form.register(`settings.${clearOf[key].field}`)}
        />
        <label htmlFor={`${clearId}-${key}`} className="form-check-label">
          {clearOf[key].label}
        </label>
      </div>
    </>
  );
  const select = (key: Exclude<SettingKey, NumberKey>, options: ReactNode) => (
    <FormField
      as="select"
      label={settingLabels[key].label}
      hint={settingLabels[key].hint}
      error={error(key)}
      {...form.register(`settings.${key}`)}
    >
      <option value="">{leave}</option>
      <option value={clear}>{clearText}</option>
      {options}
    </FormField>
  );

  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={group ? `Settings of group ${group.name}` : 'Fleet default settings'}
      submitLabel="Save"
      pending={change.isPending}
      onSave={({ settings }) => change.mutateAsync({ id: group?._id ?? null, changes: settings })}
      saved={settingsMessages.saved}
      fieldOfError={fieldOfError}
    >
      <p className="small text-body-secondary">
        {group
          ? group.kind === 'static'
            ? `Written on the group's ${group.machineCount} machines now, and on machines added to it later.`
            : `Written on the ${group.machineCount} machines its filter matches now, within a minute on machines that match later, and taken off those that stop matching.`
          : "Every machine's value unless its group or the machine itself sets one; Clear brings back the default."}{' '}
        Leave a setting as it is to keep what the machines have.
      </p>
      {nothing ? (
        <div className="alert alert-danger py-2" role="alert">
          {nothing}
        </div>
      ) : null}
      {numberField('heartbeatSeconds')}
      {select(
        'logLevel',
        logLevels.map((level) => (
          <option key={level} value={level}>
            {level}
          </option>
        )),
      )}
      {select(
        'language',
        appLanguages.map((language) => (
          <option key={language} value={language}>
            {languageLabels[language]}
          </option>
        )),
      )}
      {select(
        'timeZone',
        zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        )),
      )}
      {numberField('licenceOfflineDays')}
    </FormModal>
  );
}
