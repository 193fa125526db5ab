import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { useRowSelection } from './use-row-selection.ts';

/* Decision 055: the shared table's selection column and the bar above it, on any list. */

type Row = { _id: string; machineNumber: string };
const columns: DataTableColumn<Row>[] = [{ key: 'machineNumber', header: 'Machine Number' }];
const pageOf = (page: number) =>
  Array.from({ length: 3 }, (_, i) => ({ _id: `id-${page}-${i}`, machineNumber: `M-${page}${i}` }));

/** A list of three rows a page, 1,234 matching its filter, with a filter that can change. */
function List({ total = 1234 }: { total?: number }) {
  const [filter, setFilter] = useState('a');
  const [page, setPage] = useState(1);
  const selection = useRowSelection(filter);
  const rows = pageOf(page);
  return (
    <>
      <button type="button" onClick={() => setFilter('b')}>
        Change filter
      </button>
      <button type="button" onClick={() => setPage(2)}>
        Page 2
      </button>
      <SelectionBar selection={selection} pageKeys={rows.map((r) => r._id)} total={total}>
        <button type="button">Act</button>
      </SelectionBar>
      <DataTable
        label="Rows"
        columns={columns}
        rows={rows}
        getRowKey={(r) => r._id}
        emptyText="None"
        selection={{ ...selection.table, rowLabel: (r) => `Select ${r.machineNumber}` }}
      />
    </>
  );
}

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
const barText = () => screen.getByRole('region', { name: 'Selection' }).textContent;

describe('row selection in the shared table', () => {
  it('labels each box by its row, marks the page box mixed or full, and hides the bar with nothing picked', async () => {
    const user = userEvent.setup();
    render(<List />);
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
    await user.click(box('Select M-10'));
    expect(box('Select all on this page').indeterminate).toBe(true);
    expect(box('Select all on this page').checked).toBe(false);
    expect(within(screen.getByRole('region', { name: 'Selection' })).getByRole('status').textContent).toBe(
      '1 selected',
    );
    await user.click(box('Select M-11'));
    await user.click(box('Select M-12'));
    expect(box('Select all on this page').indeterminate).toBe(false);
    expect(box('Select all on this page').checked).toBe(true);
    await user.click(box('Select all on this page'));
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
  });

  it('offers all matching once the page is picked, then ticks every row of every page', async () => {
    const user = userEvent.setup();
    render(<List />);
    await user.click(box('Select M-10'));
    expect(screen.queryByRole('button', { name: /Select all 1,234/ })).toBeNull();
    await user.click(box('Select all on this page'));
    await user.click(screen.getByRole('button', { name: 'Select all 1,234 matching' }));
    expect(barText()).toContain('All 1,234 matching selected');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(box('Select M-20').checked).toBe(true);
    // Unticking one row keeps what is ticked on screen and the rows picked before, without it.
    await user.click(box('Select M-20'));
    expect(barText()).toContain('5 selected');
    expect(box('Select M-20').checked).toBe(false);
    expect(box('Select M-21').checked).toBe(true);
  });

  it('keeps picked rows across pages and clears them when the filter changes', async () => {
    const user = userEvent.setup();
    render(<List />);
    await user.click(box('Select M-10'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await user.click(box('Select M-21'));
    expect(barText()).toContain('2 selected');
    await user.click(screen.getByRole('button', { name: 'Change filter' }));
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
    expect(box('Select M-21').checked).toBe(false);
  });

  it('offers nothing more when the page already holds every match', async () => {
    const user = userEvent.setup();
    render(<List total={3} />);
    await user.click(box('Select all on this page'));
    expect(barText()).toContain('3 selected');
    expect(screen.queryByRole('button', { name: /matching/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Selection' })).toBeNull();
  });
});
