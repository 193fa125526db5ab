import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ModalFormFooter } from './modal-form-footer.tsx';

describe('ModalFormFooter', () => {
  it('submits the form it names, and cancels', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const onCancel = vi.fn();
    render(
      <>
        <form id="role-form" onSubmit={onSubmit} />
        <ModalFormFooter onCancel={onCancel} pending={false} submitLabel="Add Role" form="role-form" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('calls onSubmit in a dialog without a form', async () => {
    const onSubmit = vi.fn();
    render(<ModalFormFooter onCancel={() => {}} pending={false} submitLabel="Save" onSubmit={onSubmit} />);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.getAttribute('type')).toBe('button');
    await userEvent.click(save);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('reads "Saving..." and lets neither button be pressed while the save is under way', () => {
    render(<ModalFormFooter onCancel={() => {}} pending submitLabel="Save" onSubmit={() => {}} />);
    expect(screen.getByRole('button', { name: 'Saving...' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
