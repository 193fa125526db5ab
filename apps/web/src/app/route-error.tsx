import { isRouteErrorResponse, useRouteError } from 'react-router';
import { webMessages } from '@app/contract/web-messages';

function describe(error: unknown) {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/**
 * SPEC 8: the router's error screen reads 'Unexpected Application Error!'. At the root it is the
 * whole page (standalone); inside the admin layout it fills only the content area.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const detail = describe(error);
  const body = (
    <div className="card shadow-sm route-error">
      <div className="card-body p-4">
        <h1 className="h3 text-danger">{webMessages.unexpectedError}</h1>
        {detail ? <p className="mb-3 text-break">{detail}</p> : null}
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload page
        </button>
      </div>
    </div>
  );
  return standalone ? (
    <main id="main-content" tabIndex={-1} className="container py-5">
      {body}
    </main>
  ) : (
    body
  );
}
