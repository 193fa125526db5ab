import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import type { AppUpdateList } from '@app/contract/app-updates';
import { groupPaths, type GroupList } from '@app/contract/groups';
import { apiPaths } from '@app/contract/paths';
import { safetyNoticeMessages, type SafetyNotice } from '@app/contract/safety-notices';
import {
  remedyKindLabels,
  remedyKinds,
  safetyNoticeKindLabels,
  safetyNoticeKinds,
  safetyNoticeTexts,
} from '@app/contract/safety-notices-texts';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import { apiClient } from '#web/lib/api-client.ts';
import { useSaveSafetyNotice } from '../api/save-safety-notice.ts';
import {
  blankNotice,
  noticeErrorField,
  noticeFormSchema,
  valuesOf,
  type NoticeFormValues,
} from './notice-form-values.ts';

/** The groups and releases to choose from (the first 100 of each: a notice names one). */
function useChoices(show: boolean) {
  const groups = useQuery({
    queryKey: ['safety-notices', 'choices', 'groups'],
    queryFn: async ({ signal }) =>
      (await apiClient.getList<GroupList>(groupPaths.groups, { query: { limit: 100 }, signal })).data,
    enabled: show,
  });
  const releases = useQuery({
    queryKey: ['safety-notices', 'choices', 'releases'],
    queryFn: async ({ signal }) =>
      (await apiClient.getList<AppUpdateList>(apiPaths.systemUpdates, { query: { limit: 100 }, signal }))
        .data,
    enabled: show,
  });
  return { groups: groups.data?.groups ?? [], releases: releases.data?.allSystems ?? [] };
}

/**
 * A new field safety notice, or a change to a draft (decision 084): its texts, which machines it is
 * about (serial ranges, app versions, a group: each one named narrows) and the remedy.
 */
export function NoticeFormModal({
  show,
  notice,
  onClose,
  onSaved,
}: {
  show: boolean;
  notice?: SafetyNotice | null;
  onClose: () => void;
  onSaved?: (notice: SafetyNotice) => void;
}) {
  const save = useSaveSafetyNotice();
  const form = useFormModal({
    show,
    resolver: zodResolver(noticeFormSchema),
    blank: blankNotice,
    record: notice ?? null,
    valuesOf,
  });
  const { groups, releases } = useChoices(show);
  const remedyKind = form.watch('remedyKind');
  const error = (name: keyof NoticeFormValues) => form.formState.errors[name]?.message;
  return (
    <FormModal
      form={form}
      show={show}
      onClose={onClose}
      title={notice ? `Change draft ${notice.reference}` : safetyNoticeTexts.createTitle}
      submitLabel="Save draft"
      pending={save.isPending}
      onSave={async (body) => {
        const answer = await save.mutateAsync({ id: notice?._id, body });
        onSaved?.(answer.data);
        return answer;
      }}
      saved={safetyNoticeMessages.saved}
      fieldOfError={noticeErrorField}
    >
      {form.field('reference', 'Reference')}
      {form.field('title', 'Title')}
      {form.select(
        'kind',
        'Kind',
        safetyNoticeKinds.map((k) => (
          <option key={k} value={k}>
            {safetyNoticeKindLabels[k]}
          </option>
        )),
      )}
      <FormField
        as="textarea"
        label="Description"
        rows={3}
        required
        error={error('description')}
        {...form.register('description')}
      />
      <FormField
        as="textarea"
        label="What the clinic must do (remedy)"
        rows={2}
        required
        error={error('remedyText')}
        {...form.register('remedyText')}
      />
      <fieldset className="border rounded p-3 mb-3">
        <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-2">Affected machines</legend>
        <FormField
          as="textarea"
          label="Serial ranges"
          rows={2}
          hint='One range per line: the first and the last serial, e.g. "SN-0100 SN-0199"; one serial alone is itself.'
          error={error('serialRanges')}
          {...form.register('serialRanges')}
        />
        <FormField
          label="App version codes"
          hint="Separated by commas, e.g. 40, 41"
          inputMode="numeric"
          error={error('appVersionCodes')}
          {...form.register('appVersionCodes')}
        />
        <FormField as="select" label="Group" error={error('groupId')} {...form.register('groupId')}>
          <option value="">Any group</option>
          {groups.map((g) => (
            <option key={g._id} value={g._id}>
              {g.name}
            </option>
          ))}
        </FormField>
      </fieldset>
      <FormField as="select" label="Remedy" {...form.register('remedyKind')}>
        <option value="">No remedy attached</option>
        {remedyKinds.map((k) => (
          <option key={k} value={k}>
            {remedyKindLabels[k]}
          </option>
        ))}
      </FormField>
      {remedyKind === 'app-update' ? (
        <FormField
          as="select"
          label="Release"
          required
          error={error('remedyId')}
          {...form.register('remedyId')}
        >
          <option value="">Choose the release</option>
          {releases.map((r) => (
            <option key={r._id} value={r._id}>
              {`${r.appName} ${r.versionName} (${r.versionCode})`}
            </option>
          ))}
        </FormField>
      ) : remedyKind === 'command-batch' ? (
        <FormField
          label="Command batch id"
          required
          hint="The id shown on the batch sent to these machines"
          error={error('remedyId')}
          {...form.register('remedyId')}
        />
      ) : null}
    </FormModal>
  );
}
