import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

export type ComboboxOption = { value: string; label: string; hint?: string };

export type ComboboxProps = {
  label: string;
  /** The option chosen, null when none is. */
  selected: ComboboxOption | null;
  onSelect: (option: ComboboxOption | null) => void;
  /** What is typed: the caller searches with it (debounced) and passes back `options`. */
  text: string;
  onTextChange: (text: string) => void;
  options: readonly ComboboxOption[];
  isLoading?: boolean;
  /** Said in the list when nothing matches what is typed. */
  emptyText: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  name?: string;
  onBlur?: () => void;
};

/**
 * A searchable select (WAI-ARIA 1.2 combobox with a listbox popup): typing narrows the options,
 * ArrowDown/ArrowUp move through them, Enter picks one, Escape closes the list (and not the dialog
 * it sits in), Tab leaves with the choice as it is. Editing the text after a choice clears the choice.
 */
export function Combobox({
  label,
  selected,
  onSelect,
  text,
  onTextChange,
  options,
  isLoading = false,
  emptyText,
  error,
  hint,
  required,
  name,
  onBlur,
}: ComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = open ? options : [];
  const activeOption = active >= 0 ? shown[active] : undefined;

  const pick = (option: ComboboxOption) => {
    onSelect(option);
    onTextChange(option.label);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : last);
        return;
      }
      if (last < 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + last + 1) % (last + 1));
    } else if (event.key === 'Enter' && open && activeOption) {
      event.preventDefault();
      pick(activeOption);
    } else if (event.key === 'Escape' && open) {
      // Only the list closes: the dialog around it stays.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-3 position-relative">
      <label htmlFor={id} className="form-label">
        {label}
        {required ? (
          <span className="text-danger" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        role="combobox"
        autoComplete="off"
        className={`form-control${error ? ' is-invalid' : ''}`}
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={activeOption ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        aria-required={required || undefined}
        value={text}
        onChange={(event) => {
          onTextChange(event.target.value);
          if (selected) onSelect(null);
          setOpen(true);
          setActive(-1);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
          onBlur?.();
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        className="list-group position-absolute w-100 shadow-sm combobox-list"
        style={{ zIndex: 1060, maxHeight: '16rem', overflowY: 'auto' }}
        hidden={shown.length === 0}
      >
        {shown.map((option, index) => (
          <li
            key={option.value}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={selected?.value === option.value}
            className={`list-group-item list-group-item-action${index === active ? ' active' : ''}`}
            // Before the input's blur: a press on an option picks it.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(option);
            }}
          >
            {option.label}
            {option.hint ? (
              <span className={`small ms-2 ${index === active ? '' : 'text-body-secondary'}`}>
                {option.hint}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {open && options.length === 0 ? (
        <div className="list-group position-absolute w-100 shadow-sm" style={{ zIndex: 1060 }}>
          <div className="list-group-item text-body-secondary" role="status">
            {isLoading ? 'Loading…' : emptyText}
          </div>
        </div>
      ) : null}
      {hint ? (
        <div id={hintId} className="form-text">
          {hint}
        </div>
      ) : null}
      {error ? (
        <div id={errorId} className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </div>
  );
}
