import type { ReactNode } from 'react';

export type PageHeaderProps = { title: string; actions?: ReactNode; children?: ReactNode };

/** The page's one h1, with optional buttons on the right and breadcrumbs or text below. */
export function PageHeader({ title, actions, children }: PageHeaderProps) {
  return (
    <div className="page-header mb-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="h3 mb-0">{title}</h1>
        {actions ? <div className="d-flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}
