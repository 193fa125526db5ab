import { alarmTexts } from '@app/contract/alarms';
import { CountBell } from '#web/components/count-bell.tsx';
import { BellIcon } from '#web/components/icons.tsx';
import { paths } from '#web/lib/paths.ts';
import { useCan } from '#web/lib/use-session.ts';
import { alarmCountQueryOptions } from '../api/get-alarm-count.ts';

/** The top bar's bell: how many alarms are open. Shown to admins who may see alarms (devices.view). */
export function AlarmBell() {
  return (
    <CountBell
      may={useCan('devices.view')}
      count={alarmCountQueryOptions}
      to={paths.alarms.href({ state: 'open' })}
      title={alarmTexts.title}
      label={alarmTexts.bell}
      icon={<BellIcon size={20} />}
    />
  );
}
