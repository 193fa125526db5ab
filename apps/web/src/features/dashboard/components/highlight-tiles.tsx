import type { ComponentType } from 'react';
import { highlightTiles, type HighlightTile, type Operations } from '@app/contract/dashboard';
import { CardIcon, DashboardIcon, UserIcon, UsersIcon } from '#web/components/icons.tsx';
import { Link } from '#web/components/link.tsx';
import { Tooltip } from '#web/components/tooltip.tsx';
import { paths } from '#web/lib/paths.ts';

type Look = { tone: string; Icon: ComponentType<{ size?: number }>; to: string };

/** Each tile's colour and icon (as the spec's sample tiles had them) and the list it opens. */
const looks: Record<HighlightTile, Look> = {
  newOrders: { tone: 'blue', Icon: CardIcon, to: paths.subscriptions.href() },
  newCustomers: { tone: 'green', Icon: UserIcon, to: paths.subscriptions.href() },
  userRegistrations: { tone: 'amber', Icon: UsersIcon, to: paths.users.href() },
  uniqueVisitors: { tone: 'red', Icon: DashboardIcon, to: paths.logs.href() },
};

const numbers = new Intl.NumberFormat('en-US');

/**
 * The spec's four tiles with real figures (issue 35 item 6): only those the role may see, each a
 * link to its list with what it counts in a tooltip; "…" while the figures load.
 */
export function HighlightTiles({ highlights }: { highlights: Operations['highlights'] | undefined }) {
  const keys = (Object.keys(highlightTiles) as HighlightTile[]).filter(
    (key) => !highlights || highlights[key] !== undefined,
  );
  if (keys.length === 0) return null;
  return (
    <ul className="row g-3 list-unstyled mb-0" aria-busy={!highlights}>
      {keys.map((key) => {
        const { tone, Icon, to } = looks[key];
        const { label, help } = highlightTiles[key];
        const value = highlights?.[key];
        return (
          <li key={key} className="col-12 col-sm-6 col-xl-3">
            <Tooltip text={help} className="d-block h-100">
              {(describedBy) => (
                <Link
                  to={to}
                  aria-describedby={describedBy}
                  className="card stat-tile h-100 shadow-sm text-decoration-none"
                >
                  <span className="card-body d-flex align-items-center gap-3">
                    <span className={`stat-icon stat-${tone}`} aria-hidden="true">
                      <Icon size={24} />
                    </span>
                    <span>
                      <span className="d-block stat-value">
                        {value === undefined ? '…' : numbers.format(value)}
                      </span>
                      <span className="d-block stat-label">{label}</span>
                    </span>
                  </span>
                </Link>
              )}
            </Tooltip>
          </li>
        );
      })}
    </ul>
  );
}
