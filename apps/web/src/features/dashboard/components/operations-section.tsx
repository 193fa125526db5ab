import { lazy, Suspense, useId, type ReactNode } from 'react';
import {
  dashboardTexts,
  expiringWithinDays,
  licenceLapsingDays,
  type Operations,
} from '@app/contract/dashboard';
import { Link } from '#web/components/link.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { paths } from '#web/lib/paths.ts';
import { useOperations } from '../api/get-operations.ts';

// The chart is the section's one heavier part: it loads after the figures, in its own chunk.
const TreatmentsChart = lazy(() =>
  import('./treatments-chart.tsx').then((m) => ({ default: m.TreatmentsChart })),
);

const numbers = new Intl.NumberFormat('en-US');

/** One figure; with `to`, a link to the list filtered to exactly these rows. */
function Figure({ value, label, to }: { value: number; label: string; to?: string }) {
  const body = (
    <>
      <span className="d-block fs-4 fw-semibold">{numbers.format(value)}</span>{' '}
      <span className="d-block small">{label}</span>
    </>
  );
  return (
    <li className="col">
      {to ? (
        <Link to={to} className="d-block text-decoration-none">
          {body}
        </Link>
      ) : (
        <div>{body}</div>
      )}
    </li>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  const heading = useId();
  return (
    <div className="col-12 col-lg-6 col-xxl-3">
      <section className="card h-100 shadow-sm" aria-labelledby={heading}>
        <div className="card-body">
          <h3 id={heading} className="h6 mb-3">
            {title}
          </h3>
          {children}
        </div>
      </section>
    </div>
  );
}

function Groups({ data }: { data: Operations }) {
  const { machines, openAlarms, licences, remote, subscriptions, treatments } = data;
  const lastDay = treatments?.days.at(-1)?.day;
  if (!machines && openAlarms === undefined && !licences && !subscriptions && !treatments)
    return <p className="mb-0">{dashboardTexts.nothingToShow}</p>;
  return (
    <div className="row g-3">
      {machines ? (
        <Group title={dashboardTexts.machines}>
          <ul className="row row-cols-3 g-2 list-unstyled mb-0">
            <Figure
              value={machines.online}
              label={dashboardTexts.online}
              to={paths.devices.href({ online: 'online' })}
            />
            <Figure
              value={machines.offline}
              label={dashboardTexts.offline}
              to={paths.devices.href({ online: 'offline' })}
            />
            <Figure
              value={machines.neverSeen}
              label={dashboardTexts.neverSeen}
              to={paths.devices.href({ online: 'never' })}
            />
          </ul>
        </Group>
      ) : null}
      {openAlarms !== undefined ? (
        <Group title={dashboardTexts.openAlarms}>
          <ul className="row row-cols-1 g-2 list-unstyled mb-0">
            <Figure
              value={openAlarms}
              label={dashboardTexts.openAlarms}
              to={paths.alarms.href({ state: 'open' })}
            />
          </ul>
        </Group>
      ) : null}
      {licences ? (
        <Group title={dashboardTexts.licences}>
          <ul className="row row-cols-3 g-2 list-unstyled mb-0">
            <Figure
              value={licences.grace}
              label={dashboardTexts.inGrace}
              to={paths.devices.href({ licence: 'grace' })}
            />
            <Figure
              value={licences.lapsed}
              label={dashboardTexts.lapsed}
              to={paths.devices.href({ licence: 'lapsed' })}
            />
            <Figure
              value={licences.lapsing}
              label={dashboardTexts.lapsing}
              to={paths.devices.href({ licenceEndsWithin: licenceLapsingDays })}
            />
          </ul>
        </Group>
      ) : null}
      {remote ? (
        <Group title={dashboardTexts.remote}>
          <ul className="row row-cols-2 g-2 list-unstyled mb-0">
            <Figure
              value={remote.settingsDrift}
              label={dashboardTexts.settingsDrift}
              to={paths.devices.href({ settings: 'drift' })}
            />
            <Figure
              value={remote.failedCommands}
              label={dashboardTexts.failedCommands}
              to={paths.devices.href({ commands: 'failed' })}
            />
          </ul>
        </Group>
      ) : null}
      {subscriptions ? (
        <Group title={dashboardTexts.subscriptions}>
          <ul className="row row-cols-3 g-2 list-unstyled mb-0">
            <Figure
              value={subscriptions.pending}
              label={dashboardTexts.pending}
              to={paths.subscriptions.href({ status: 1 })}
            />
            <Figure
              value={subscriptions.failed}
              label={dashboardTexts.failed}
              to={paths.subscriptions.href({ status: 4 })}
            />
            <Figure
              value={subscriptions.expiringIn7Days}
              label={dashboardTexts.expiring}
              to={paths.subscriptions.href({ expiresWithin: expiringWithinDays })}
            />
          </ul>
        </Group>
      ) : null}
      {treatments ? (
        <Group title={dashboardTexts.treatments}>
          <ul className="row row-cols-2 g-2 list-unstyled mb-0">
            <Figure
              value={treatments.today}
              label={dashboardTexts.today}
              to={paths.treatments.href({ from: lastDay, to: lastDay })}
            />
            <Figure
              value={treatments.last30Days}
              label={dashboardTexts.last30Days}
              to={paths.treatments.href({ from: treatments.days[0]?.day, to: lastDay })}
            />
          </ul>
          <Suspense fallback={<Spinner small label="Loading chart..." className="mt-3" />}>
            <TreatmentsChart days={treatments.days} />
          </Suspense>
        </Group>
      ) : null}
    </div>
  );
}

/** The dashboard's Operations section (decision 050): the figures the role may see, each a link to its list. */
export function OperationsSection() {
  const heading = useId();
  const { data, isPending, isError } = useOperations();
  return (
    <section className="mt-4" aria-labelledby={heading}>
      <h2 id={heading} className="h5 mb-3">
        {dashboardTexts.operations}
      </h2>
      {isPending ? (
        <Spinner />
      ) : isError ? (
        <p className="mb-0">{dashboardTexts.loadFailed}</p>
      ) : (
        <Groups data={data} />
      )}
    </section>
  );
}
