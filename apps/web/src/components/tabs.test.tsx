import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Tabs } from './tabs.tsx';

describe('Tabs', () => {
  it('renders only the active panel and moves with the arrow keys', async () => {
    const renderPatients = vi.fn(() => <p>Patients list</p>);
    const renderTreatments = vi.fn(() => <p>Treatment list</p>);
    render(
      <Tabs
        label="Patient And Treatment Details"
        tabs={[
          { id: 'patients', label: 'Patients List', render: renderPatients },
          { id: 'treatments', label: 'Treatment List', render: renderTreatments },
        ]}
      />,
    );
    expect(screen.getByRole('tablist', { name: 'Patient And Treatment Details' })).toBeTruthy();
    expect(screen.getByRole('tabpanel', { name: 'Patients List' }).textContent).toBe('Patients list');
    expect(renderTreatments).not.toHaveBeenCalled();

    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Patients List' }));
    await userEvent.keyboard('{ArrowRight}');
    const treatments = screen.getByRole('tab', { name: 'Treatment List' });
    expect(document.activeElement).toBe(treatments);
    expect(treatments.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('Treatment list');
    expect(screen.queryByText('Patients list')).toBeNull();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Patients List' }).getAttribute('aria-selected')).toBe('true');
  });
});
