import { errorMessage } from '#web/lib/api-client.ts';

/**
 * What a card shows when its data could not be loaded: the API's message (or `fallback`) and a
 * button that asks again, so one failed request never leaves a blank card.
 */
export function LoadError({
  error,
  fallback,
  onRetry,
}: {
  error: unknown;
  fallback: string;
  onRetry: () => void;
}) {
  return (
    <div className="d-flex flex-wrap align-items-center gap-2">
      <p className="mb-0">{errorMessage(error, fallback)}</p>
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
