import type { ComponentType } from 'react';
import { CardIcon, DashboardIcon, UserIcon, UsersIcon } from '#web/components/icons.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { OperationsSection } from '../components/operations-section.tsx';

type Tile = { label: string; value: string; tone: string; Icon: ComponentType<{ size?: number }> };

/** docs/product.md §1: placeholder content with fixed sample tiles, kept exactly; real figures follow below. */
const tiles: readonly Tile[] = [
  { label: 'New Orders', value: '150', tone: 'blue', Icon: CardIcon },
  { label: 'New Customer', value: '53', tone: 'green', Icon: UserIcon },
  { label: 'User Registrations', value: '44', tone: 'amber', Icon: UsersIcon },
  { label: 'Unique Visitors', value: '65', tone: 'red', Icon: DashboardIcon },
];

export function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <ul className="row g-3 list-unstyled mb-0">
        {tiles.map(({ label, value, tone, Icon }) => (
          <li key={label} className="col-12 col-sm-6 col-xl-3">
            <div className="card stat-tile h-100 shadow-sm">
              <div className="card-body d-flex align-items-center gap-3">
                <span className={`stat-icon stat-${tone}`} aria-hidden="true">
                  <Icon size={24} />
                </span>
                <div>
                  <p className="stat-value mb-0">{value}</p>
                  <p className="stat-label mb-0">{label}</p>
                </div>
              </div>
            </div>
          </li>
        ))}
      </ul>
      <OperationsSection />
    </>
  );
}
