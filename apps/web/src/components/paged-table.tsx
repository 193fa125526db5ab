import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { PlusIcon } from './icons.tsx';
import { Pager } from './pager.tsx';

export type PagedTableProps<T> = Omit<DataTableProps<T>, 'page' | 'limit'> & {
  /** The list's page state (useUrlListState or useListState). */
  list: { page: number; limit: number; changePage: (next: { page: number; limit: number }) => void };
  /** Until the first answer arrives there is one page. */
  totalPages: number | undefined;
  pagerLabel: string;
  /** Search box, column settings and the like above the table. */
  toolbar?: ReactNode;
};

/** A list page's card: the table and its pager over one page state. */
export function PagedTable<T>({ list, totalPages, pagerLabel, toolbar, ...table }: PagedTableProps<T>) {
  return (
    <div className="card shadow-sm">
      <div className="card-body">
        {toolbar}
        <DataTable {...table} page={list.page} limit={list.limit} />
        <Pager
          page={list.page}
          totalPages={totalPages ?? 1}
          limit={list.limit}
          onChange={list.changePage}
          label={pagerLabel}
        />
      </div>
    </div>
  );
}

/** The page header's "Add ..." button. */
export function AddButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className="btn btn-primary d-inline-flex align-items-center gap-2"
      onClick={onClick}
    >
      <PlusIcon size={16} />
      {children}
    </button>
  );
}
