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
    const machine = screen.getByRole('checkbox', { name: /Machine Number/ }) as HTMLInputElement;
    expect(machine.checked).toBe(true);
    expect(machine.disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Location' }) as HTMLInputElement).disabled).toBe(false);
  });

  it('hides and shows a column, the mandatory ones staying', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Location' }));
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
});
