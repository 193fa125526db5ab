import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { PlusIcon } from './icons.tsx';
import { Pager } from './pager.tsx';

export type TableWithPagerProps<T> = Omit<DataTableProps<T>, 'page' | 'limit'> & {
  /** The list's page state (useUrlListState or useListState). */
  list: { page: number; limit: number; changePage: (next: { page: number; limit: number }) => void };
  /** Until the first answer arrives there is one page. */
  totalPages: number | undefined;
  pagerLabel: string;
  /** The rows-per-page choices, when not the pager's default. */
  pageSizeOptions?: readonly number[];
  /** The list's total and its row's name: "1,234 machines" beside the pager. */
  total?: number;
  noun?: readonly [string, string];
  /** The total is the server's estimate (a broad search): "about 1,234 machines". */
  approximate?: boolean;
};

/** The table and its pager over one page state (inside a card of the caller's). */
export function TableWithPager<T>({
  list,
  totalPages,
  pagerLabel,
  pageSizeOptions,
  total,
  noun,
  approximate,
  ...table
}: TableWithPagerProps<T>) {
  return (
    <>
      <DataTable {...table} page={list.page} limit={list.limit} />
      <Pager
        page={list.page}
        totalPages={totalPages ?? 1}
        limit={list.limit}
        onChange={list.changePage}
        pageSizeOptions={pageSizeOptions}
        label={pagerLabel}
        total={total}
        noun={noun}
        approximate={approximate}
      />
    </>
  );
}

export type PagedTableProps<T> = TableWithPagerProps<T> & {
  /** Search box, column settings and the like above the table. */
  toolbar?: ReactNode;
};

/** A list page's card: the table and its pager over one page state. */
export function PagedTable<T>({ toolbar, ...table }: PagedTableProps<T>) {
  return (
    <div className="card shadow-sm">
      <div className="card-body">
        {toolbar}
        <TableWithPager {...table} />
      </div>
    </div>
  );
}

/**
 * The page header's "Add ..." button. `onIntent` runs when the pointer reaches it or it gets focus:
 * a screen whose form loads lazily starts fetching it then.
 */
export function AddButton({
  onClick,
  onIntent,
  children,
}: {
  onClick: () => void;
  onIntent?: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="btn btn-primary d-inline-flex align-items-center gap-2"
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      <PlusIcon size={16} />
      {children}
    </button>
  );
}
