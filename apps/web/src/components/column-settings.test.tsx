import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ColumnSettings, useColumnVisibility, type ColumnChoice } from './column-settings.tsx';

const columns: ColumnChoice[] = [
  { key: 'machineNumber', header: 'Machine Number', mandatory: true },
  { key: 'serialNumber', header: 'Serial Number', mandatory: true },
  { key: 'location', header: 'Location' },
  { key: 'status', header: 'Status' },
];

function Harness() {
  const [visible, setVisible] = useColumnVisibility('columns:devices', columns);
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
    const machine = screen.getByRole('checkbox', { name: /Machine Number/ }) as HTMLInputElement;
    expect(machine.checked).toBe(true);
    expect(machine.disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Location' }) as HTMLInputElement).disabled).toBe(false);
  });

  it('hides a column and remembers the choice under the given key', async () => {
    const { unmount } = render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Location' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,status');
    expect(JSON.parse(localStorage.getItem('columns:devices')!)).toEqual(['location']);
    unmount();

    render(<Harness />);
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,status');
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Location' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,location,status');
  });

  it('keeps a column hidden by default off until it is chosen, and remembers it turned on', async () => {
    const withOptional: ColumnChoice[] = [
      ...columns,
      { key: 'lastSeenAt', header: 'Last Seen', hiddenByDefault: true },
    ];
    function Optional() {
      const [visible, setVisible] = useColumnVisibility('columns:devices', withOptional);
      return (
        <>
          <ColumnSettings columns={withOptional} visible={visible} onChange={setVisible} />
          <output>{visible.join(',')}</output>
        </>
      );
    }
    const { unmount } = render(<Optional />);
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,location,status');
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Last Seen' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Location' }));
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,status,lastSeenAt');
    expect(JSON.parse(localStorage.getItem('columns:devices')!)).toEqual(['location', 'lastSeenAt']);
    unmount();

    render(<Optional />);
    expect(screen.getByRole('status').textContent).toBe('machineNumber,serialNumber,status,lastSeenAt');
  });

  it('closes on Escape and gives focus back to its button', async () => {
    render(<Harness />);
    const button = screen.getByRole('button', { name: 'Columns' });
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});
