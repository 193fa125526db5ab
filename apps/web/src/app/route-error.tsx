import { isRouteErrorResponse, useRouteError } from 'react-router';
import { describeError, ErrorScreen } from './error-screen.tsx';

/**
 * docs/product.md §8: the router's error screen. At the root it is the whole page (standalone); inside the admin
 * layout it fills only the content area.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : describeError(error);
  return <ErrorScreen detail={detail} standalone={standalone} />;
}
