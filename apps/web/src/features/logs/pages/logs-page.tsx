import { LogsTabs } from '#web/components/logs-tabs.tsx';
import { PageHeader } from '#web/components/page-header.tsx';

/** /admin/logs-management: every access and error log, with one search over both (docs/product.md §2.9 "Admin Logs"). */
export function LogsPage() {
  return (
    <>
      <PageHeader title="Admin Logs" />
      <div className="card shadow-sm">
        <div className="card-body">
          <LogsTabs inUrl />
        </div>
      </div>
    </>
  );
}
