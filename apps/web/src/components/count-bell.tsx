import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BellCountOptions } from '#web/lib/bell-count.ts';
import { Link } from './link.tsx';

type Props = {
  /** Whether the signed-in admin may see what it counts; without it the bell is not there. */
  may: boolean;
  count: () => BellCountOptions;
  to: string;
  /** Its name before the count is known, and with it ("3 open alarms"). */
  title: string;
  label: (open: number) => string;
  icon: ReactNode;
  className?: string;
};

/**
 * A top-bar bell: how many items of a kind are open, as a link to them. Its name says the count;
 * the badge repeats it for the eye. Each new screen reads the count again once it is a minute old
 * (a cached one costs nothing): lib/bell-count.ts.
 */
export function CountBell({ may, count, to, title, label, icon, className = '' }: Props) {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const { data } = useQuery({ ...count(), enabled: may });
  useEffect(() => {
    if (may) void queryClient.prefetchQuery(count());
  }, [may, pathname, queryClient, count]);
  if (!may) return null;
  const open = data?.open;
  const name = open === undefined ? title : label(open);
  return (
    <Link
      to={to}
      className={`btn btn-light topbar-toggle position-relative ${className}`.trim()}
      aria-label={name}
      title={name}
    >
      {icon}
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
