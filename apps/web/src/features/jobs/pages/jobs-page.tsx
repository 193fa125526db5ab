import { jobsTexts } from '@app/contract/jobs';
import { DataTable } from '#web/components/data-table.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { useJobs } from '../api/get-jobs.ts';
import { jobColumns, runColumns } from '../components/jobs-columns.tsx';

/**
 * /admin/jobs (issue 36 item 1, decision 075): the server's periodic jobs as the queue in the
 * database ran them on any instance: each job's period, last run, next run, failed tries of the
 * last 24 hours and dead-lettered runs; below, the latest runs with their errors. Read again every
 * 15 seconds while open.
 */
export function JobsPage() {
  // "Due now" is judged at the time of the answer: rows exist only once there is one.
  const { data, isPending, dataUpdatedAt } = useJobs();
  return (
    <>
      <PageHeader title={jobsTexts.title}>
        <p className="text-body-secondary mt-2 mb-0">{jobsTexts.intro}</p>
      </PageHeader>
      {data && !data.runsHere ? (
        <p className="alert alert-info" role="note">
          {jobsTexts.notHere}
        </p>
      ) : null}
      <div className="card shadow-sm mb-4">
        <div className="card-body">
          <DataTable
            label={jobsTexts.jobsCaption}
            columns={jobColumns(dataUpdatedAt)}
            rows={data?.jobs}
            getRowKey={(job) => job.name}
            emptyText={jobsTexts.empty}
            isLoading={isPending}
            showSrNo={false}
          />
        </div>
      </div>
      <section className="card shadow-sm" aria-labelledby="latest-runs">
        <div className="card-body">
          <h2 id="latest-runs" className="h5 mb-3">
            {jobsTexts.runsTitle}
          </h2>
          <DataTable
            label={jobsTexts.runsCaption}
            columns={runColumns}
            rows={data?.runs}
            getRowKey={(run) => `${run.job} ${run.createdAt}`}
            emptyText={jobsTexts.noRuns}
            isLoading={isPending}
            showSrNo={false}
          />
        </div>
      </section>
    </>
  );
}
