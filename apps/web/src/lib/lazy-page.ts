import type { ComponentType } from 'react';

/** A route's `lazy` that gives the route its page component. */
export type LazyPage = () => Promise<{ Component: ComponentType }>;

/**
 * A route's `lazy` that loads a page module and renders one of its named exports. The caller keeps
 * its own `import('...')` literal so the bundler still makes every page a chunk of its own.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  exportName: Name,
): LazyPage {
  return () => load().then((module) => ({ Component: module[exportName] }));
}
