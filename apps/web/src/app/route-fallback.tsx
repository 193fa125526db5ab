import { Spinner } from '../components/spinner.tsx';

/** Shown while the first screen's code loads. */
export function RouteFallback() {
  return (
    <div className="d-flex min-vh-100 align-items-center justify-content-center">
      <Spinner />
    </div>
  );
}
