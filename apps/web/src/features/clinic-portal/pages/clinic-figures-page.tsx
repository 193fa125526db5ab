import { useState } from 'react';
import type { Figures } from '@app/contract/clinic-portal';
import {
  clinicPortalApiPaths,
  clinicPortalTexts as texts,
  figureGroupingLabels,
  figureGroupings,
  type FigureGrouping,
} from '@app/contract/clinic-portal-texts';
import { DateRangeFilter } from '#web/components/date-range-filter.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Tabs } from '#web/components/tabs.tsx';
import { useUrlSearchParams } from '#web/lib/use-url-search-params.ts';
import { useFigures } from '../api/get-figures.ts';
import { FiguresChart, type ChartRow } from '../components/figures-chart.tsx';

const rowHeaders: Record<FigureGrouping, string> = {
  machine: 'Machine',
  doctor: 'Doctor',
  week: 'Week starting',
  month: 'Month',
};

function rowsOf(figures: Figures, by: FigureGrouping): ChartRow[] {
  switch (by) {
    case 'machine':
      return figures.byMachine.map((r) => ({ key: r.deviceId, ...r }));
    case 'doctor':
      return figures.byDoctor.map((r) => ({ key: r.doctorId ?? 'none', ...r }));
    case 'week':
      return figures.byWeek.map((r) => ({ key: r.week, label: r.week, ...r }));
    case 'month':
      return figures.byMonth.map((r) => ({ key: r.month, label: r.month, ...r }));
  }
}

/**
 * /clinic/figures (issue 39 item 5): the clinic's treatments over a range of its days (the last
 * twelve months unless chosen), per month, week, machine and doctor, each as a chart with its table,
 * and the grouping shown as a CSV. Records of a machine the clinic no longer holds stay its own.
 */
export function ClinicFiguresPage() {
  const [params, setParams] = useUrlSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const [by, setBy] = useState<FigureGrouping>('month');
  const reversed = Boolean(from && to && from > to);
  const query = useFigures(reversed ? {} : { from: from || undefined, to: to || undefined });
  const { data } = query;
  const setRange = (range: { from: string; to: string }) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(range))
          if (value) next.set(key, value);
          else next.delete(key);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title={texts.figuresTitle}
        actions={
          <ExportCsvButton
            path={clinicPortalApiPaths.figuresExport}
            query={{ from: data?.from, to: data?.to, by }}
            columns={{ shown: [], exportable: {} }}
            expectedRows={data ? rowsOf(data, by).length : undefined}
            fileName={`treatment-figures-by-${by}`}
          />
        }
      />
      <div className="card shadow-sm">
        <div className="card-body">
          <div className="mb-3">
            <DateRangeFilter
              from={from || data?.from || ''}
              to={to || data?.to || ''}
              onChange={setRange}
              note={data ? `days in ${data.timeZone}` : 'your time zone'}
            />
          </div>
          {query.isError && !data ? (
            <LoadError
              error={query.error}
              fallback="The figures could not be loaded."
              onRetry={() => void query.refetch()}
            />
          ) : !data ? (
            <Spinner label="Loading figures" />
          ) : (
            <>
              <p className="mb-3" aria-live="polite">
                <strong>{data.total.count.toLocaleString('en-US')}</strong> treatments,{' '}
                <strong>{data.total.minutes.toLocaleString('en-US')}</strong> minutes from {data.from} to{' '}
                {data.to}.
              </p>
              {data.total.count === 0 ? (
                <p className="text-body-secondary">{texts.figuresEmpty}</p>
              ) : (
                <Tabs
                  label="Figures"
                  activeId={by}
                  onChange={(id) => setBy(id as FigureGrouping)}
                  tabs={figureGroupings.map((g) => ({
                    id: g,
                    label: figureGroupingLabels[g],
                    render: () => (
                      <FiguresChart
                        title={`Treatments ${figureGroupingLabels[g].toLowerCase()}`}
                        rows={rowsOf(data, g)}
                        rowHeader={rowHeaders[g]}
                      />
                    ),
                  }))}
                />
              )}
            </>
          )}
        </div>
      </div>
    </>
  );
}
