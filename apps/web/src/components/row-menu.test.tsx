import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RowMenu } from './row-menu.tsx';

function renderMenu() {
  const resend = vi.fn();
  const revoke = vi.fn();
  render(
    <>
      <RowMenu
        label="Actions for Ada"
        items={[
          { label: 'Resend link', onSelect: resend },
          { label: 'Receipt', href: 'https://receipts.example/1' },
          { label: 'Revoke link', onSelect: revoke, danger: true },
        ]}
      />
      <button type="button">After</button>
    </>,
  );
  return { resend, revoke, button: screen.getByRole('button', { name: 'Actions for Ada' }) };
}

describe('RowMenu', () => {
  it('opens from the keyboard on the first item, moves with the arrows, Home and End, and Escape returns focus', async () => {
    const { button } = renderMenu();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    button.focus();
    await userEvent.keyboard('{Enter}');
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Resend link',
      'Receipt (opens in a new tab)',
      'Revoke link',
    ]);
    expect(document.activeElement).toBe(items[0]);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[1]);
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(items[2]);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[0]);
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(items[2]);
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(items[0]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('opens on the last item with ArrowUp, and choosing an item closes the menu, focuses the button, then acts', async () => {
    const { button, revoke } = renderMenu();
    button.focus();
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Revoke link' }));
    await userEvent.keyboard('{Enter}');
    expect(revoke).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('opens a link item in a new tab, and Tab leaves the menu closed', async () => {
    const { button } = renderMenu();
    await userEvent.click(button);
    const receipt = screen.getByRole('menuitem', { name: /Receipt/ });
    expect(receipt.getAttribute('href')).toBe('https://receipts.example/1');
    expect(receipt.getAttribute('target')).toBe('_blank');
    expect(receipt.getAttribute('rel')).toContain('noopener');
    await userEvent.keyboard('{Tab}');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('stays open and follows its button while the page scrolls (a smooth scroll may still be running)', async () => {
    const { button } = renderMenu();
    button.focus();
    await userEvent.keyboard('{Enter}');
    fireEvent.scroll(window);
    expect(screen.getByRole('menu')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Resend link' }));
  });

  it('ends with a Loading… item while more items are fetched, fetched once the button is reached', async () => {
    const intent = vi.fn();
    render(<RowMenu label="Actions for Ada" items={[]} pending onIntent={intent} />);
    const button = screen.getByRole('button', { name: 'Actions for Ada' });
    button.focus();
    expect(intent).toHaveBeenCalled();
    await userEvent.keyboard('{ArrowDown}');
    const loading = screen.getByRole('menuitem', { name: 'Loading…' });
    expect(loading.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(loading);
  });

  it('shows no button when the admin may do nothing on the row', () => {
    render(<RowMenu label="Actions for Ada" items={[]} />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
