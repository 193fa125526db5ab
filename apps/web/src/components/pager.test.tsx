import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pager, type PagerProps } from './pager.tsx';

describe('Pager', () => {
  it("shows 'Page X of Y' and disables Prev on the first page", () => {
    render(<Pager page={1} totalPages={4} limit={10} onChange={() => {}} />);
    expect(screen.getByText('Page 1 of 4')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Prev' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(false);
  });

  it('disables Next on the last page and moves back with Prev', async () => {
    const onChange = vi.fn();
    render(<Pager page={4} totalPages={4} limit={25} onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Prev' }));
    expect(onChange).toHaveBeenCalledWith({ page: 3, limit: 25 });
  });

  it('offers 10, 25, 50, 75 and 100 rows by default and goes back to page 1 on a new size', async () => {
    const onChange = vi.fn();
    render(<Pager page={3} totalPages={9} limit={10} onChange={onChange} />);
    const select = screen.getByRole('combobox', { name: 'Rows per page' });
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      '10',
      '25',
      '50',
      '75',
      '100',
    ]);
    await userEvent.selectOptions(select, '50');
    expect(onChange).toHaveBeenCalledWith({ page: 1, limit: 50 });
  });

  it('takes the page-size options it is given', () => {
    render(<Pager page={1} totalPages={0} limit={10} onChange={() => {}} pageSizeOptions={[10, 25]} />);
    const select = screen.getByRole('combobox', { name: 'Rows per page' });
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['10', '25']);
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });
});

describe("the list's total beside the pager (issue 35 item 7)", () => {
  it('says how many rows the list holds, one or many, and an estimate as such', () => {
    const pager = (props: Partial<PagerProps>) => (
      <Pager page={1} totalPages={1} limit={10} onChange={() => {}} {...props} />
    );
    const { rerender } = render(pager({ total: 1234, noun: ['machine', 'machines'] }));
    expect(screen.getByText('1,234 machines')).toBeTruthy();
    rerender(pager({ total: 1, noun: ['machine', 'machines'] }));
    expect(screen.getByText('1 machine')).toBeTruthy();
    rerender(pager({ total: 5000, noun: ['entry', 'entries'], approximate: true }));
    expect(screen.getByText('about 5,000 entries')).toBeTruthy();
    rerender(pager({ noun: ['entry', 'entries'] }));
    expect(screen.queryByText(/entries/)).toBeNull();
  });
});
