import { webMessages } from '@app/contract/web-messages';

/** What an error says about itself, '' when nothing. */
export function describeError(error: unknown) {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/**
 * docs/product.md §8: the error screen reads 'Unexpected Application Error!'. Standalone it is the whole page;
 * otherwise it fills only the content area. Without the router: route-error.tsx passes it the
 * router's error, the public checkout (checkout-app.tsx) its own.
 */
export function ErrorScreen({ detail, standalone = false }: { detail: string; standalone?: boolean }) {
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
