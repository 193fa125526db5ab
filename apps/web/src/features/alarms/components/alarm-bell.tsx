import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { alarmTexts } from '@app/contract/alarms';
import { BellIcon } from '#web/components/icons.tsx';
import { Link } from '#web/components/link.tsx';
import { paths } from '#web/lib/paths.ts';
import { useCan } from '#web/lib/use-session.ts';
import { alarmCountQueryOptions, useAlarmCount } from '../api/get-alarm-count.ts';

/**
 * The top bar's bell: how many alarms are open, as a link to them. Shown to admins who may see
 * alarms (devices.view). Its name says the count ("3 open alarms"); the badge repeats it for the eye.
 */
export function AlarmBell() {
  const may = useCan('devices.view');
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const { data } = useAlarmCount(may);
  // Each new screen reads the count again once it is a minute old (a cached one costs nothing).
  useEffect(() => {
    if (may) void queryClient.prefetchQuery(alarmCountQueryOptions());
  }, [may, pathname, queryClient]);
  if (!may) return null;
  const open = data?.open;
  const label = open === undefined ? alarmTexts.title : alarmTexts.bell(open);
  return (
    <Link
      to={paths.alarms.href({ state: 'open' })}
      className="btn btn-light topbar-toggle position-relative"
      aria-label={label}
      title={label}
    >
      <BellIcon size={20} />
      {open ? (
        <span
          className="badge rounded-pill text-bg-danger position-absolute top-0 start-100 translate-middle"
          aria-hidden="true"
        >
          {open > 99 ? '99+' : open}
        </span>
      ) : null}
    </Link>
  );
}
