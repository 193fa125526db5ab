import { useState } from 'react';
import type { LegalHold } from '@app/contract/retention';
import { retentionTexts } from '@app/contract/retention-texts';
import { DataTable } from '#web/components/data-table.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { SectionCard } from '#web/components/section-card.tsx';
import { useListState } from '#web/lib/use-list-state.ts';
import { useLegalHolds, useRetentionRuns, useRetentionSchedule } from '../api/get-retention.ts';
import { LiftHoldModal } from '../components/lift-hold-modal.tsx';
import { PlaceHoldModal } from '../components/place-hold-modal.tsx';
import { holdColumns, runColumns, scheduleColumns } from '../components/retention-columns.tsx';

/**
 * /admin/retention (decision 086): the retention schedule per record type (with health data's
 * country overrides), the last runs with what each removed, and the legal holds, placed and lifted
 * here with a reason.
 */
export function RetentionPage() {
  const schedule = useRetentionSchedule();
  const runsList = useListState({ initialLimit: 10 });
  const runs = useRetentionRuns({ page: runsList.page, limit: runsList.limit });
  const holdsList = useListState({ initialLimit: 10 });
  const holds = useLegalHolds({ page: holdsList.page, limit: holdsList.limit });
  const [placing, setPlacing] = useState(false);
  const [lifting, setLifting] = useState<LegalHold | null>(null);

  const liftButton = (hold: LegalHold) =>
    hold.liftedAt ? null : (
      <button
        type="button"
        className="btn btn-sm btn-outline-primary"
        aria-label={`${retentionTexts.lift}: ${hold.subjectLabel}`}
        onClick={() => setLifting(hold)}
      >
        {retentionTexts.lift}
      </button>
    );

  return (
    <>
      <PageHeader
        title={retentionTexts.title}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setPlacing(true)}>
            {retentionTexts.placeHold}
          </button>
        }
      />
      <p>{retentionTexts.intro}</p>
      <SectionCard title={retentionTexts.scheduleTitle} className="">
        {schedule.isError ? (
          <LoadError
            error={schedule.error}
            fallback="The schedule could not be loaded."
            onRetry={() => void schedule.refetch()}
          />
        ) : (
          <>
            <DataTable
              label={retentionTexts.scheduleTitle}
              columns={scheduleColumns}
              rows={schedule.data?.entries}
              getRowKey={(entry) => entry.recordType}
              emptyText="No schedule."
              isLoading={schedule.isPending}
            />
            {schedule.data ? (
              <p className="small text-body-secondary mb-0">
                {retentionTexts.healthMinimum(schedule.data.healthMinimumYears)}
              </p>
            ) : null}
          </>
        )}
      </SectionCard>
      <SectionCard title={retentionTexts.holdsTitle}>
        {holds.isError && !holds.data ? (
          <LoadError
            error={holds.error}
            fallback="The legal holds could not be loaded."
            onRetry={() => void holds.refetch()}
          />
        ) : (
          <TableWithPager
            label={retentionTexts.holdsTitle}
            columns={holdColumns}
            rows={holds.data?.holds}
            getRowKey={(hold) => hold._id}
            emptyText={retentionTexts.emptyHolds}
            isLoading={holds.isPending}
            list={holdsList}
            totalPages={holds.data?.totalPages}
            total={holds.data?.total}
            noun={['legal hold', 'legal holds']}
            pagerLabel="Legal hold pages"
            actions={liftButton}
            actionsHeader="Actions"
          />
        )}
      </SectionCard>
      <SectionCard title={retentionTexts.runsTitle}>
        {runs.isError && !runs.data ? (
          <LoadError
            error={runs.error}
            fallback="The runs could not be loaded."
            onRetry={() => void runs.refetch()}
          />
        ) : (
          <TableWithPager
            label={retentionTexts.runsTitle}
            columns={runColumns}
            rows={runs.data?.runs}
            getRowKey={(run) => run._id}
            emptyText={retentionTexts.emptyRuns}
            isLoading={runs.isPending}
            list={runsList}
            totalPages={runs.data?.totalPages}
            total={runs.data?.total}
            noun={['run', 'runs']}
            pagerLabel="Retention run pages"
          />
        )}
      </SectionCard>
      <PlaceHoldModal show={placing} onClose={() => setPlacing(false)} />
      <LiftHoldModal hold={lifting} onClose={() => setLifting(null)} />
    </>
  );
}
