import { useId } from 'react';
import { alarmTexts } from '@app/contract/alarms';
import { SectionCard } from '#web/components/section-card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useAlarmDigest } from '../api/get-alarm-digest.ts';
import { useSetAlarmDigest } from '../api/set-alarm-digest.ts';

function DigestSwitch() {
  const id = useId();
  const { data, isPending } = useAlarmDigest();
  const save = useSetAlarmDigest();
  if (isPending) return <Spinner />;
  const change = async (enabled: boolean) => {
    try {
      notify.success((await save.mutateAsync(enabled)).msg);
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <div className="form-check form-switch mb-0">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="form-check-input"
        checked={data?.enabled ?? false}
        disabled={save.isPending || !data}
        aria-describedby={`${id}-help`}
        onChange={(event) => void change(event.target.checked)}
      />
      <label htmlFor={id} className="form-check-label">
        {alarmTexts.digestLabel}
      </label>
      <div id={`${id}-help`} className="form-text">
        {alarmTexts.digestHelp}
      </div>
    </div>
  );
}

/** My Profile's daily alarm digest, for admins who may see alarms (devices.view). */
export function AlarmDigestCard() {
  if (!useCan('devices.view')) return null;
  return (
    <SectionCard title={alarmTexts.digestTitle}>
      <DigestSwitch />
    </SectionCard>
  );
}
