import { useCallback, useId, useRef, useState } from 'react';
import { useDismiss } from '../lib/use-dismiss.ts';
import { ColumnsIcon } from './icons.tsx';

export type ColumnChoice = {
  key: string;
  header: string;
  mandatory?: boolean;
  /** Off until the admin turns it on: an optional column that keeps a list's default view unchanged. */
  hiddenByDefault?: boolean;
};

export type ColumnSettingsProps = {
  columns: readonly ColumnChoice[];
  visible: readonly string[];
  onChange: (visible: string[]) => void;
  label?: string;
};

/** A dropdown of checkboxes to show or hide columns; mandatory ones are checked and disabled. */
export function ColumnSettings({ columns, visible, onChange, label = 'Columns' }: ColumnSettingsProps) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(container, open, close, button);

  const toggle = (key: string, checked: boolean) =>
    onChange(
      checked
        ? columns.filter((c) => c.mandatory || c.key === key || visible.includes(c.key)).map((c) => c.key)
        : visible.filter((k) => k !== key),
    );

  return (
    <div className="dropdown column-settings" ref={container}>
      <button
        ref={button}
        type="button"
        className="btn btn-outline-secondary d-inline-flex align-items-center gap-2"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <ColumnsIcon size={16} />
        {label}
      </button>
      <div
        id={panelId}
        className={`dropdown-menu dropdown-menu-end p-3 shadow-sm${open ? ' show' : ''}`}
        hidden={!open}
      >
        <fieldset>
          <legend className="fs-6 fw-semibold mb-2">Show columns</legend>
          {columns.map((column) => {
            const id = `${panelId}-${column.key}`;
            const checked = column.mandatory || visible.includes(column.key);
            return (
              <div className="form-check text-nowrap" key={column.key}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  id={id}
                  checked={checked}
                  disabled={column.mandatory}
                  onChange={(event) => toggle(column.key, event.target.checked)}
                />
                <label className="form-check-label" htmlFor={id}>
                  {column.header}
                  {column.mandatory ? <span className="visually-hidden"> (always shown)</span> : null}
                </label>
              </div>
            );
          })}
        </fieldset>
      </div>
    </div>
  );
}
