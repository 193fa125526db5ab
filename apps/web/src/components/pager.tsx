import { useId } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from './icons.tsx';

/** docs/product.md §9: the general list offers 10–100; device-user, treatment and log pagers 10 and 25. */
export const DEFAULT_PAGE_SIZES = [10, 25, 50, 75, 100] as const;
export const DETAIL_PAGE_SIZES = [10, 25] as const;

export type PagerProps = {
  page: number;
  totalPages: number;
  limit: number;
  /** A new page size comes back with page 1. */
  onChange: (next: { page: number; limit: number }) => void;
  pageSizeOptions?: readonly number[];
  disabled?: boolean;
  label?: string;
  /** How many rows the whole list holds, said as "1,234 machines" (issue 35 item 7); unknown until loaded. */
  total?: number;
  /** The row's name, one and many: ['machine', 'machines']. */
  noun?: readonly [string, string];
  /** The total is an estimate (a broad search over millions of log rows): "about 1,234 …". */
  approximate?: boolean;
};

const counts = new Intl.NumberFormat('en-US');

export function Pager({
  page,
  totalPages,
  limit,
  onChange,
  pageSizeOptions = DEFAULT_PAGE_SIZES,
  disabled = false,
  label = 'Pagination',
  total,
  noun,
  approximate = false,
}: PagerProps) {
  const selectId = useId();
  const pages = Math.max(1, Math.floor(totalPages) || 1);
  const current = Math.min(Math.max(1, page), pages);
  const sizes = pageSizeOptions.includes(limit)
    ? pageSizeOptions
    : [...pageSizeOptions, limit].sort((a, b) => a - b);

  return (
    <nav
      aria-label={label}
      className="pager d-flex flex-wrap align-items-center justify-content-between gap-3 pt-3"
    >
      <div className="d-flex align-items-center gap-2">
        <label htmlFor={selectId} className="form-label mb-0 text-nowrap">
          Rows per page
        </label>
        <select
          id={selectId}
          className="form-select form-select-sm w-auto"
          value={limit}
          disabled={disabled}
          onChange={(event) => onChange({ page: 1, limit: Number(event.target.value) })}
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="d-flex flex-wrap align-items-center gap-2">
        {total !== undefined && noun ? (
          <span className="text-body-secondary">
            {approximate ? 'about ' : ''}
            {counts.format(total)} {total === 1 ? noun[0] : noun[1]}
          </span>
        ) : null}
        <span aria-live="polite">
          Page {current} of {pages}
        </span>
        <button
          type="button"
          className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center"
          disabled={disabled || current <= 1}
          onClick={() => onChange({ page: current - 1, limit })}
        >
          <ChevronLeftIcon size={16} />
          Prev
        </button>
        <button
          type="button"
          className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center"
          disabled={disabled || current >= pages}
          onClick={() => onChange({ page: current + 1, limit })}
        >
          Next
          <ChevronRightIcon size={16} />
        </button>
      </div>
    </nav>
  );
}
