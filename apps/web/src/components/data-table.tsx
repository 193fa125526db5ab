import type { ReactNode } from 'react';
import { bulkTexts } from '@app/contract/bulk-texts';
import { orNA, type Displayable } from '../lib/format.ts';
import type { SortState } from '../lib/use-list-state.ts';
import { SortIcon } from './icons.tsx';
import { Spinner } from './spinner.tsx';
import { TruncatedText } from './truncated-text.tsx';
import type { TableSelection } from './use-row-selection.ts';

export type DataTableColumn<T> = {
  key: string;
  header: string;
  /** Cell content; without it the row's field `key` is shown, or N/A when empty. */
  render?: (row: T, index: number) => ReactNode;
  sortable?: boolean;
  /** The sort key a header click asks for when it is not `key` (two columns may sort by one field). */
  sortKey?: string;
  /** Cannot be hidden in ColumnSettings. */
  mandatory?: boolean;
  /** Off until the admin chooses it in ColumnSettings (useColumnVisibility). */
  hiddenByDefault?: boolean;
  className?: string;
  /**
   * A free text that may be long (a name, an email, a remark): cut to one line at this width (CSS,
   * `true` for 16em, in the table's type), whole on hover and focus (TruncatedText), so the table
   * fits a 1280 px window.
   */
  truncate?: string | true;
};

export type DataTableProps<T> = {
  /** Names the table for assistive technology (a visually hidden caption). */
  label: string;
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[] | null | undefined;
  getRowKey: (row: T, index: number) => string | number;
  emptyText: string;
  isLoading?: boolean;
  /** Page and page size make Sr No run on across pages. */
  page?: number;
  limit?: number;
  /** Keys to show, in their order (from useColumnVisibility); all, in `columns` order, when omitted. */
  visibleColumns?: readonly string[];
  sort?: SortState;
  onSort?: (key: string) => void;
  /** Renders an Action column. */
  actions?: (row: T, index: number) => ReactNode;
  actionsHeader?: string;
  srNoHeader?: string;
  showSrNo?: boolean;
  /**
   * A checkbox column (useRowSelection's `table`), each box labelled by `rowLabel` ("Select
   * M-0001"), the header's box for the whole page. Keys are `getRowKey`'s. `onIntent` runs when
   * the pointer or focus reaches a box: a list whose bulk actions load lazily fetches them then.
   */
  selection?: TableSelection & { rowLabel: (row: T) => string; onIntent?: () => void };
};

/**
 * The visible columns in the chosen order (decision 057). A mandatory column not named (one the
 * chooser does not offer, such as an Actions column) keeps its place: before the first shown column
 * that comes after it in `columns`.
 */
function orderColumns<T>(columns: readonly DataTableColumn<T>[], visible: readonly string[]) {
  const shown = visible.flatMap((key) => columns.filter((c) => c.key === key));
  columns.forEach((column, index) => {
    if (!column.mandatory || visible.includes(column.key)) return;
    const later = shown.findIndex((c) => columns.indexOf(c) > index);
    shown.splice(later < 0 ? shown.length : later, 0, column);
  });
  return shown;
}

/**
 * A heading breaks between its words when the columns need the room (a 1280 px window): `text-nowrap`
 * keeps a column's cells on one line, never its heading.
 */
const headerClass = (className: string | undefined) =>
  className?.replace(/\btext-nowrap\b/g, '').trim() || undefined;

const ariaSort = (sort: SortState | undefined, key: string) =>
  sort?.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';

function defaultCell<T>(row: T, key: string) {
  const value = (row as Record<string, unknown>)[key];
  return typeof value === 'object' && value !== null ? orNA(null) : orNA(value as Displayable);
}

function cell<T>(column: DataTableColumn<T>, row: T, index: number): ReactNode {
  const content = column.render ? column.render(row, index) : defaultCell(row, column.key);
  if (!column.truncate || typeof content !== 'string') return content;
  return <TruncatedText text={content} maxWidth={column.truncate === true ? undefined : column.truncate} />;
}

export function DataTable<T>({
  label,
  columns,
  rows,
  getRowKey,
  emptyText,
  isLoading = false,
  page = 1,
  limit = 10,
  visibleColumns,
  sort,
  onSort,
  actions,
  actionsHeader = 'Action',
  srNoHeader = 'Sr No',
  showSrNo = true,
  selection,
}: DataTableProps<T>) {
  const shown = visibleColumns ? orderColumns(columns, visibleColumns) : columns;
  const list = rows ?? [];
  const columnCount = shown.length + (showSrNo ? 1 : 0) + (actions ? 1 : 0) + (selection ? 1 : 0);
  const keyOf = (row: T, index: number) => String(getRowKey(row, index));
  const pageKeys = selection ? list.map(keyOf) : [];
  const isSelected = (key: string) => !!selection && (selection.allMatching || selection.selected.has(key));
  const pickedOnPage = pageKeys.filter(isSelected).length;

  return (
    // A table wider than the screen scrolls sideways: keyboard users reach that by focusing the
    // region (WCAG 2.1.1, axe scrollable-region-focusable), which also names it. Positioned, so a
    // visually hidden text in a cell (absolute) stays inside the scrolling box instead of widening
    // the page at 320 px (found by phone.spec on a History with old → new values).
    <div className="table-responsive position-relative" tabIndex={0} role="region" aria-label={label}>
      <table className="table table-hover align-middle mb-0 data-table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {selection ? (
              <th scope="col" className="select-cell">
                <Checkbox
                  label={bulkTexts.selectPage}
                  checked={pageKeys.length > 0 && pickedOnPage === pageKeys.length}
                  indeterminate={pickedOnPage > 0 && pickedOnPage < pageKeys.length}
                  disabled={pageKeys.length === 0}
                  onChange={(checked) => selection.onTogglePage(pageKeys, checked)}
                  onIntent={selection.onIntent}
                />
              </th>
            ) : null}
            {showSrNo ? <th scope="col">{srNoHeader}</th> : null}
            {shown.map((column) =>
              column.sortable && onSort ? (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={ariaSort(sort, column.sortKey ?? column.key)}
                  className={headerClass(column.className)}
                >
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => onSort(column.sortKey ?? column.key)}
                  >
                    {column.header}
                    <SortIcon
                      direction={sort?.key === (column.sortKey ?? column.key) ? sort.direction : undefined}
                    />
                  </button>
                </th>
              ) : (
                <th key={column.key} scope="col" className={headerClass(column.className)}>
                  {column.header}
                </th>
              ),
            )}
            {actions ? (
              <th scope="col" className="text-nowrap actions-cell">
                {actionsHeader}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {isLoading ? (
            <tr>
              <td colSpan={columnCount} className="text-center py-4">
                <Spinner />
              </td>
            </tr>
          ) : list.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="text-center py-4 text-body-secondary">
                {emptyText}
              </td>
            </tr>
          ) : (
            list.map((row, index) => (
              <tr
                key={getRowKey(row, index)}
                className={isSelected(keyOf(row, index)) ? 'table-active' : undefined}
              >
                {selection ? (
                  <td className="select-cell">
                    <Checkbox
                      label={selection.rowLabel(row)}
                      checked={isSelected(keyOf(row, index))}
                      onChange={(checked) => selection.onToggle(keyOf(row, index), checked, pageKeys)}
                      onIntent={selection.onIntent}
                    />
                  </td>
                ) : null}
                {showSrNo ? <td>{(page - 1) * limit + index + 1}</td> : null}
                {shown.map((column) => (
                  <td key={column.key} className={column.className}>
                    {cell(column, row, index)}
                  </td>
                ))}
                {actions ? (
                  <td className="actions-cell">
                    <div className="d-flex gap-1 flex-nowrap">{actions(row, index)}</div>
                  </td>
                ) : null}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A labelled checkbox; `indeterminate` exists only as a DOM property, so it is set through the ref. */
function Checkbox({
  label,
  checked,
  indeterminate = false,
  disabled = false,
  onChange,
  onIntent,
}: {
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  onIntent?: () => void;
}) {
  return (
    <input
      type="checkbox"
      className="form-check-input m-0"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      ref={(input) => {
        if (input) input.indeterminate = indeterminate;
      }}
      onChange={(event) => onChange(event.target.checked)}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    />
  );
}
