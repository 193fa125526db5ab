import type { ComponentProps } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table.tsx';

type Device = { _id: string; machineNumber: string; location: string | null };

const columns: DataTableColumn<Device>[] = [
  { key: 'machineNumber', header: 'Machine Number', sortable: true, mandatory: true },
  { key: 'location', header: 'Location', sortable: true },
];
const rows: Device[] = [
  { _id: 'a', machineNumber: 'M-1', location: 'Berlin' },
  { _id: 'b', machineNumber: 'M-2', location: null },
];

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

/** The table of these tests, with the devices above; each test gives what it is about. */
function Devices(props: Partial<ComponentProps<typeof DataTable<Device>>>) {
  return (
    <DataTable
      label="Devices"
      columns={columns}
      rows={rows}
      getRowKey={(r) => r._id}
      emptyText="none"
      {...props}
    />
  );
}

describe('DataTable', () => {
  it('numbers rows across pages and shows N/A for empty cells', () => {
    render(<Devices emptyText="No customers found." page={3} limit={10} />);
    expect(screen.getByRole('table', { name: 'Devices' })).toBeTruthy();
    const [first, second] = bodyRows();
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['21', 'M-1', 'Berlin']);
    expect(
      within(second!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['22', 'M-2', 'N/A']);
  });

  it('shows a spinner while loading and the empty text when there are no rows', () => {
    const { rerender } = render(<Devices rows={[]} emptyText="No customers found." isLoading />);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(screen.queryByText('No customers found.')).toBeNull();
    rerender(<Devices rows={[]} emptyText="No customers found." />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('cell').textContent).toBe('No customers found.');
    expect(screen.getByRole('cell').getAttribute('colspan')).toBe('3');
  });

  it('marks the sorted column with aria-sort and reports header clicks', async () => {
    const onSort = vi.fn();
    render(<Devices sort={{ key: 'location', direction: 'desc' }} onSort={onSort} />);
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((h) => h.getAttribute('aria-sort'))).toEqual([null, 'none', 'descending']);
    await userEvent.click(screen.getByRole('button', { name: 'Machine Number' }));
    expect(onSort).toHaveBeenCalledWith('machineNumber');
  });

  it('renders custom cells, an Action column and only the visible columns', () => {
    render(
      <Devices
        columns={[...columns, { key: 'status', header: 'Status', render: () => 'Active' }]}
        rows={rows.slice(0, 1)}
        visibleColumns={['status']}
        actions={(row) => <button type="button">View {row.machineNumber}</button>}
      />,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Sr No',
      'Machine Number',
      'Status',
      'Action',
    ]);
    expect(screen.getByRole('button', { name: 'View M-1' })).toBeTruthy();
    expect(screen.getByText('Active')).toBeTruthy();
  });

  it('shows the visible columns in their given order, an unnamed mandatory one in its own place', () => {
    render(
      <Devices
        columns={[
          ...columns,
          { key: 'status', header: 'Status' },
          { key: 'tools', header: 'Tools', mandatory: true, render: () => 'x' },
        ]}
        rows={rows.slice(0, 1)}
        visibleColumns={['status', 'location']}
      />,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Sr No',
      'Machine Number',
      'Status',
      'Location',
      'Tools',
    ]);
  });

  it('tells when the pointer or focus reaches a selection box, before anything is picked', async () => {
    const onIntent = vi.fn();
    render(
      <Devices
        selection={{
          selected: new Set<string>(),
          allMatching: false,
          onToggle: () => {},
          onTogglePage: () => {},
          rowLabel: (r) => `Select ${r.machineNumber}`,
          onIntent,
        }}
      />,
    );
    await userEvent.hover(screen.getByRole('checkbox', { name: 'Select M-2' }));
    expect(onIntent).toHaveBeenCalledTimes(1);
    screen.getByRole('checkbox', { name: 'Select all on this page' }).focus();
    expect(onIntent).toHaveBeenCalledTimes(2);
  });
});
