import type { ComponentType } from 'react';

/**
 * A route's `lazy` that loads a page module and renders one of its named exports. The caller keeps
 * its own `import('...')` literal so the bundler still makes every page a chunk of its own.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  exportName: Name,
) {
  return () => load().then((module) => ({ Component: module[exportName] }));
}
