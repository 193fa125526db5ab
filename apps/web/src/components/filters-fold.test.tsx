import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FiltersFold } from './filters-fold.tsx';

const phoneWide = (matches: boolean) =>
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: () => ({ matches, addEventListener: () => {}, removeEventListener: () => {} }),
  });

afterEach(() => {
  Reflect.deleteProperty(window, 'matchMedia');
});

const fold = (active: number) =>
  render(
    <FiltersFold active={active}>
      <label>
        Online <select />
      </label>
    </FiltersFold>,
  );

describe('the filters on a phone (issue 35 item 7)', () => {
  it('fold behind a Filters button that says how many are set, and open by keyboard', async () => {
    phoneWide(true);
    fold(2);
    const button = screen.getByRole('button', { name: 'Filters (2 set)' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('combobox', { name: 'Online' })).toBeNull();
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Online' })).toBeTruthy();
  });

  it('show as they are on a wider screen', () => {
    phoneWide(false);
    fold(0);
    expect(screen.queryByRole('button', { name: /Filters/ })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Online' })).toBeTruthy();
  });
});
