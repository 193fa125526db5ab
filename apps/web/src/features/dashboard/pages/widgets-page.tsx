import { PageHeader } from '#web/components/page-header.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { notify } from '#web/lib/notify.ts';

const progress = [
  { label: 'Devices online', value: 80 },
  { label: 'Subscriptions paid', value: 62 },
  { label: 'App updates rolled out', value: 45 },
];

/** docs/product.md §1: a static widgets demo page, not product behaviour. It also shows the five toast types. */
export function WidgetsPage() {
  const showLoading = () => {
    const id = notify.loading('Working on it...');
    setTimeout(() => notify.success('Done', { id }), 1500);
  };
  return (
    <>
      <PageHeader title="Widgets" />
      <div className="row g-3">
        <section className="col-12 col-lg-6" aria-labelledby="widgets-progress">
          <div className="card shadow-sm h-100">
            <div className="card-body">
              <h2 id="widgets-progress" className="h5 card-title">
                Progress
              </h2>
              {progress.map(({ label, value }) => (
                <div key={label} className="mb-3">
                  <div className="d-flex justify-content-between small mb-1">
                    <span>{label}</span>
                    <span>{value}%</span>
                  </div>
                  <div
                    className="progress"
                    role="progressbar"
                    aria-label={label}
                    aria-valuenow={value}
                    aria-valuemin={0}
                    aria-valuemax={100}
                  >
                    <div className="progress-bar" style={{ width: `${value}%` }} />
                  </div>
                </div>
              ))}
            </div>
          </div>
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="widgets-badges">
          <div className="card shadow-sm h-100">
            <div className="card-body">
              <h2 id="widgets-badges" className="h5 card-title">
                Badges
              </h2>
              <div className="d-flex flex-wrap gap-2">
                <StatusBadge label="Active" tone="success" />
                <StatusBadge label="Inactive" tone="secondary" />
                <StatusBadge label="Pending" tone="warning" />
                <StatusBadge label="Failed" tone="danger" />
                <StatusBadge label="Info" tone="info" />
              </div>
            </div>
          </div>
        </section>
        <section className="col-12" aria-labelledby="widgets-toasts">
          <div className="card shadow-sm">
            <div className="card-body">
              <h2 id="widgets-toasts" className="h5 card-title">
                Notifications
              </h2>
              <div className="d-flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn btn-success"
                  onClick={() => notify.success('Saved successfully')}
                >
                  Success
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => notify.info('Here is some information')}
                >
                  Info
                </button>
                <button
                  type="button"
                  className="btn btn-warning"
                  onClick={() => notify.warning('Please double-check this')}
                >
                  Warning
                </button>
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => notify.error('Something went wrong')}
                >
                  Error
                </button>
                <button type="button" className="btn btn-outline-secondary" onClick={showLoading}>
                  Loading
                </button>
              </div>
            </div>
          </div>
        </section>
      </div>
    </>
  );
}
