import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ColumnSettings, type ColumnChoice } from './column-settings.tsx';

const columns: ColumnChoice[] = [
  { key: 'machineNumber', header: 'Machine Number', mandatory: true },
  { key: 'serialNumber', header: 'Serial Number', mandatory: true },
  { key: 'location', header: 'Location' },
  { key: 'status', header: 'Status' },
];

// Where the choice is kept is the hook's business (features/preferences); here, plain state.
function Harness() {
  const [visible, setVisible] = useState(['machineNumber', 'serialNumber', 'location', 'status']);
  return (
    <>
      <ColumnSettings columns={columns} visible={visible} onChange={setVisible} />
      <output>{visible.join(',')}</output>
    </>
  );
}

describe('ColumnSettings', () => {
  it('opens a list of checkboxes with the mandatory columns checked and disabled', async () => {
    render(<Harness />);
    const button = screen.getByRole('button', { name: 'Columns' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    // The panel loads on first use: wait for it.
    const machine = (await screen.findByRole('checkbox', { name: /Machine Number/ })) as HTMLInputElement;
    expect(machine.checked).toBe(true);
    expect(machine.disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Location' }) as HTMLInputElement).disabled).toBe(false);
  });

  it('hides and shows a column, the mandatory ones staying', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Location' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,status');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Location' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,location,status');
  });

  it('closes on Escape and gives focus back to its button', async () => {
    render(<Harness />);
    const button = screen.getByRole('button', { name: 'Columns' });
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('moves a column up and down by keyboard, keeping focus on it and announcing where it went', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const up = await screen.findByRole('button', { name: 'Move Location up' });
    up.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('status').textContent).toBe('machineNumber,location,serialNumber,status');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Location up' }));
    expect(screen.getByText('Location moved to position 2 of 4.').getAttribute('aria-live')).toBe('polite');
    await userEvent.keyboard(' ');
    expect(screen.getByRole('status').textContent).toBe('location,machineNumber,serialNumber,status');
    // At the top, Move up stays focused and does nothing.
    const top = screen.getByRole('button', { name: 'Move Location up' });
    expect(document.activeElement).toBe(top);
    expect(top.getAttribute('aria-disabled')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('status').textContent).toBe('location,machineNumber,serialNumber,status');
    // A mandatory column moves too.
    await userEvent.click(screen.getByRole('button', { name: 'Move Serial Number down' }));
    expect(screen.getByRole('status').textContent).toBe('location,machineNumber,status,serialNumber');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Serial Number down' }));
    expect(screen.getByText('Serial Number moved to position 4 of 4.')).toBeTruthy();
  });

  it('lists the columns in the shown order, a hidden one without move buttons and back in its row when shown', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Move Status up' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Status' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,location');
    expect(screen.queryByRole('button', { name: 'Move Status up' })).toBeNull();
    const names = () =>
      screen.getAllByRole('checkbox').map((box) => box.getAttribute('id')!.split('-show-')[1]);
    expect(names()).toEqual(['machineNumber', 'serialNumber', 'location', 'status']);
    await userEvent.click(screen.getByRole('button', { name: 'Move Location up' }));
    expect(names()).toEqual(['machineNumber', 'location', 'serialNumber', 'status']);
    // Turned on again, it takes its row's place: last.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Status' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,location,serialNumber,status');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Status' }));
  });
});
