import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Combobox, type ComboboxOption } from './combobox.tsx';

const all: ComboboxOption[] = [
  { value: 'a', label: 'Alpha Clinic', hint: 'Germany' },
  { value: 'b', label: 'Beta Clinic', hint: 'France' },
  { value: 'c', label: 'Gamma Care' },
];

function Picker({ onEscapeOutside = () => {} }: { onEscapeOutside?: () => void }) {
  const [selected, setSelected] = useState<ComboboxOption | null>(null);
  const [text, setText] = useState('');
  const options = all.filter((o) => o.label.toLowerCase().includes(text.toLowerCase()));
  return (
    <div onKeyDown={(event) => event.key === 'Escape' && onEscapeOutside()}>
      <Combobox
        label="Customer"
        selected={selected}
        onSelect={setSelected}
        text={text}
        onTextChange={setText}
        options={options}
        emptyText="No customer matches."
        required
      />
      <output aria-label="Chosen">{selected?.value ?? 'none'}</output>
    </div>
  );
}

describe('Combobox', () => {
  it('narrows the options as one types and picks one with the arrow keys and Enter', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    const input = screen.getByRole('combobox', { name: /Customer/ });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    await user.type(input, 'clinic');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Alpha ClinicGermany',
      'Beta ClinicFrance',
    ]);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]!.id);
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Chosen').textContent).toBe('b');
    expect((input as HTMLInputElement).value).toBe('Beta Clinic');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('clears the choice when the text is edited, and says when nothing matches', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    const input = screen.getByRole('combobox', { name: /Customer/ });
    await user.click(input);
    await user.click(screen.getByRole('option', { name: /Gamma Care/ }));
    expect(screen.getByLabelText('Chosen').textContent).toBe('c');
    await user.type(input, 'x');
    expect(screen.getByLabelText('Chosen').textContent).toBe('none');
    expect(screen.getByText('No customer matches.').getAttribute('role')).toBe('status');
  });

  it('closes its list on Escape without letting the Escape reach the dialog around it', async () => {
    const user = userEvent.setup();
    const outside = vi.fn();
    render(<Picker onEscapeOutside={outside} />);
    const input = screen.getByRole('combobox', { name: /Customer/ });
    await user.click(input);
    await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(outside).not.toHaveBeenCalled();
    // Closed, Escape is the dialog's again.
    await user.keyboard('{Escape}');
    expect(outside).toHaveBeenCalledTimes(1);
  });
});
