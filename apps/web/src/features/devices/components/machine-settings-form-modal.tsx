import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  appLanguages,
  languageLabels,
  logLevels,
  settingKeys,
  settingLabels,
  settingsLimits,
  settingsMessages,
  settingValueSchemas as shape,
  type SettingKey,
  type SettingsChangeBody,
  type SettingValues,
} from '@app/contract/machine-settings';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import type { ApiError } from '#web/lib/api-client.ts';

/*
 * The machine's own settings (its overrides): an empty field or "Not set on this machine" is null,
 * which removes the machine's value so the group's, the fleet's or the default applies again.
 */

const notSet = 'Not set on this machine';
const blankAsNull = (value: string) => (value === '' ? null : value);
const numberOrNull = z
  .string()
  .trim()
  .transform((value) => (value === '' ? null : Number(value)));
/** The form holds text; the contract's rules check each value, and empty is null. */
const formSchema = z.object({
  heartbeatSeconds: numberOrNull.pipe(shape.heartbeatSeconds.nullable()),
  logLevel: z.string().transform(blankAsNull).pipe(shape.logLevel.nullable()),
  language: z.string().transform(blankAsNull).pipe(shape.language.nullable()),
  timeZone: z.string().trim().transform(blankAsNull).pipe(shape.timeZone.nullable()),
  licenceOfflineDays: numberOrNull.pipe(shape.licenceOfflineDays.nullable()),
});
type SettingsForm = z.input<typeof formSchema>;
type SettingsChoice = z.output<typeof formSchema>;

const blank: SettingsForm = {
  heartbeatSeconds: '',
  logLevel: '',
  language: '',
  timeZone: '',
  licenceOfflineDays: '',
};
const valuesOf = (own: SettingValues): SettingsForm => ({
  heartbeatSeconds: own.heartbeatSeconds === undefined ? '' : String(own.heartbeatSeconds),
  logLevel: own.logLevel ?? '',
  language: own.language ?? '',
  timeZone: own.timeZone ?? '',
  licenceOfflineDays: own.licenceOfflineDays === undefined ? '' : String(own.licenceOfflineDays),
});

/** Only what differs from the machine's own values: a key left as it was is not sent. */
const changesOf = (own: SettingValues, choice: SettingsChoice): SettingsChangeBody =>
  Object.fromEntries(
    settingKeys.filter((key) => (own[key] ?? null) !== choice[key]).map((key) => [key, choice[key]]),
  );

/** The setting a 400 names (`timeZone`), when it is one of the form's. */
const fieldOfError = (error: ApiError) => {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  return error.status === 400 && settingKeys.includes(path as SettingKey) ? (path as SettingKey) : undefined;
};

export function MachineSettingsFormModal({
  machineNumber,
  own,
  show,
  onClose,
  onSave,
  pending,
}: {
  machineNumber: string;
  own: SettingValues;
  show: boolean;
  onClose: () => void;
  onSave: (changes: SettingsChangeBody) => Promise<{ msg?: string }>;
  pending: boolean;
}) {
  const form = useFormModal({ show, resolver: zodResolver(formSchema), blank, record: own, valuesOf });
  const error = (key: SettingKey) => form.getFieldState(key, form.formState).error?.message;
  const common = (key: SettingKey) => ({
    label: settingLabels[key].label,
    hint: settingLabels[key].hint,
    error: error(key),
    ...form.register(key),
  });
  // A whole number within its catalogue limits.
  const numberField = (key: 'heartbeatSeconds' | 'licenceOfflineDays') => (
    <FormField
      {...common(key)}
      type="number"
      inputMode="numeric"
      min={settingsLimits[key].min}
      max={settingsLimits[key].max}
      step={1}
      autoComplete="off"
    />
  );
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={`Settings of ${machineNumber}`}
      submitLabel="Save"
      pending={pending}
      onSave={(choice) => onSave(changesOf(own, choice))}
      saved={settingsMessages.saved}
      fieldOfError={fieldOfError}
    >
      <p className="small text-body-secondary">
        These are this machine&apos;s own values. Leave one empty, or choose &ldquo;{notSet}&rdquo;, and the
        value of its group, of the fleet or the default applies.
      </p>
      {numberField('heartbeatSeconds')}
      <FormField as="select" {...common('logLevel')}>
        <option value="">{notSet}</option>
        {logLevels.map((level) => (
          <option key={level} value={level}>
            {level}
          </option>
        ))}
      </FormField>
      <FormField as="select" {...common('language')}>
        <option value="">{notSet}</option>
        {appLanguages.map((language) => (
          <option key={language} value={language}>
            {languageLabels[language]}
          </option>
        ))}
      </FormField>
      <FormField {...common('timeZone')} autoComplete="off" spellCheck={false} />
      {numberField('licenceOfflineDays')}
    </FormModal>
  );
}
