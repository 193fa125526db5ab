import { useId } from 'react';
import type { UsageReport } from '@app/contract/clinic-portal';
import { clinicPortalApiPaths, clinicPortalTexts as texts } from '@app/contract/clinic-portal-texts';
import { DataTable, type DataTableColumn } from '#web/components/data-table.tsx';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { useSession } from '#web/lib/use-session.ts';
import { useUrlSearchParams } from '#web/lib/use-url-search-params.ts';
import { useUsage } from '../api/get-usage.ts';
import './usage-report-print.css';

type Row = UsageReport['machines'][number];
const number = (n: number) => n.toLocaleString('en-US');
const columns: DataTableColumn<Row>[] = [
  { key: 'label', header: 'Machine', render: (r) => (r.current ? r.label : `${r.label} (no longer held)`) },
  { key: 'serialNumber', header: 'Serial Number', render: (r) => r.serialNumber ?? '' },
  { key: 'treatments', header: texts.treatments, className: 'text-end', render: (r) => number(r.treatments) },
  { key: 'minutes', header: texts.minutes, className: 'text-end', render: (r) => number(r.minutes) },
  { key: 'daysUsed', header: texts.daysUsed, className: 'text-end', render: (r) => number(r.daysUsed) },
];

/**
 * /clinic/usage (issue 39 item 5): a month's use of each machine the clinic held in it (treatments,
 * minutes, days used), on a page made to print (usage-report-print.css) and as a CSV.
 */
export function ClinicUsagePage() {
  const [params, setParams] = useUrlSearchParams();
  const month = params.get('month') || undefined;
  const query = useUsage(month);
  const { data } = query;
  const clinic = useSession((s) => s.details?.clinic?.name);
  const monthId = useId();
  return (
    <div className="usage-report">
      <PageHeader
        title={texts.usageTitle}
        actions={
          <span className="usage-report-controls d-inline-flex flex-wrap gap-2">
            <ExportCsvButton
              path={clinicPortalApiPaths.usageExport}
              query={{ month: data?.month ?? month }}
              columns={{ shown: [], exportable: {} }}
              expectedRows={data?.machines.length}
              fileName={`usage-${data?.month ?? month ?? 'month'}`}
            />
            <button type="button" className="btn btn-outline-secondary" onClick={() => window.print()}>
              {texts.print}
            </button>
          </span>
        }
      />
      <div className="usage-report-controls d-flex align-items-center gap-2 mb-3">
        <label htmlFor={monthId} className="form-label mb-0">
          Month
        </label>
        <input
          id={monthId}
          type="month"
          className="form-control form-control-sm w-auto"
          value={data?.month ?? month ?? ''}
          onChange={(event) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                if (event.target.value) next.set('month', event.target.value);
                else next.delete('month');
                return next;
              },
              { replace: true },
            )
          }
        />
      </div>
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The usage report could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <div className="card shadow-sm">
          <div className="card-body">
            {data ? (
              <p>
                {clinic ? `${clinic}, ` : ''}
                {data.month} (days in {data.timeZone}): <strong>{number(data.total.treatments)}</strong>{' '}
                treatments, <strong>{number(data.total.minutes)}</strong> minutes, machines used on{' '}
                <strong>{number(data.total.daysUsed)}</strong> days.
              </p>
            ) : null}
            <DataTable
              label={`Usage per machine${data ? `, ${data.month}` : ''}`}
              columns={columns}
              rows={data?.machines}
              getRowKey={(r) => r.deviceId}
              emptyText={texts.usageEmpty}
              isLoading={query.isPending || (query.isFetching && !data)}
              srNoHeader="Sr No."
            />
          </div>
        </div>
      )}
    </div>
  );
}
