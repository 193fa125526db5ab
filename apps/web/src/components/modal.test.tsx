import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmModal } from './confirm-modal.tsx';
import { outsideModalsAttribute } from '../lib/outside-modals.ts';
import { Modal } from './modal.tsx';

function Opener({ staticBackdrop = false }: { staticBackdrop?: boolean }) {
  const [show, setShow] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setShow(true)}>
        Add New User
      </button>
      <Modal
        show={show}
        onClose={() => setShow(false)}
        title="Add New User"
        staticBackdrop={staticBackdrop}
        footer={<button type="button">Save</button>}
      >
        <label htmlFor="name">Name</label>
        <input id="name" />
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('is a modal dialog named by its title, focuses the first field and keeps focus inside', async () => {
    render(<Opener />);
    await userEvent.click(screen.getByRole('button', { name: 'Add New User' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New User' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });

  it('makes the page behind it inert while open, but not the toasts, and gives the page back', async () => {
    const toasts = document.createElement('div');
    toasts.setAttribute(outsideModalsAttribute, '');
    document.body.append(toasts);
    const { container } = render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Add New User' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Add New User' });
    expect(container.closest('[inert]')).not.toBeNull();
    expect(toasts.hasAttribute('inert')).toBe(false);
    expect(dialog.closest('[inert]')).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(container.closest('[inert]')).toBeNull();
    expect(document.activeElement).toBe(opener);
    toasts.remove();
  });

  it('closes on Escape and gives focus back to the opener', async () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Add New User' });
    await userEvent.click(opener);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("gives focus to the page's main content when its opener is gone", async () => {
    function Rows() {
      const [rows, setRows] = useState(['Ann', 'Bob']);
      const [deleting, setDeleting] = useState<string | null>(null);
      return (
        <main id="main-content" tabIndex={-1}>
          {rows.map((name) => (
            <button key={name} type="button" onClick={() => setDeleting(name)}>
              Delete {name}
            </button>
          ))}
          <ConfirmModal
            show={deleting !== null}
            text={`Delete ${deleting}?`}
            onCancel={() => setDeleting(null)}
            onConfirm={() => (setRows(rows.filter((r) => r !== deleting)), setDeleting(null))}
          />
        </main>
      );
    }
    render(<Rows />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Ann' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(screen.queryByRole('button', { name: 'Delete Ann' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('stays open on Escape with a static backdrop', async () => {
    render(<Opener staticBackdrop />);
    await userEvent.click(screen.getByRole('button', { name: 'Add New User' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('ConfirmModal', () => {
  it("asks 'Are you sure you want to delete this?' with No and Yes", async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmModal show onConfirm={onConfirm} onCancel={onCancel} />);
    expect(screen.getByRole('dialog', { name: 'Remove Data' })).toBeTruthy();
    expect(screen.getByText('Are you sure you want to delete this?')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'No' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it("reads 'Deleting...' and blocks both answers while pending", () => {
    render(<ConfirmModal show isPending onConfirm={() => {}} onCancel={() => {}} />);
    expect(screen.getByRole('button', { name: 'Deleting...' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'No' }).hasAttribute('disabled')).toBe(true);
  });
});
