import { Link } from './link.tsx';

export type BreadcrumbItem = { label: string; to?: string; state?: unknown };
export type BreadcrumbsProps = { items: readonly BreadcrumbItem[] };

/** The last item is the current page. */
export function Breadcrumbs({ items }: BreadcrumbsProps) {
  return (
    <nav aria-label="breadcrumb">
      <ol className="breadcrumb mb-0">
        {items.map((item, index) => {
          const current = index === items.length - 1;
          return (
            <li
              key={`${item.label}-${index}`}
              className={`breadcrumb-item${current ? ' active' : ''}`}
              aria-current={current ? 'page' : undefined}
            >
              {item.to && !current ? (
                <Link to={item.to} state={item.state}>
                  {item.label}
                </Link>
              ) : (
                item.label
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
