import { useId } from 'react';
import { DisclosureDropdown } from './disclosure-dropdown.tsx';
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
  const panelId = useId();
  const toggle = (key: string, checked: boolean) =>
    onChange(
      checked
        ? columns.filter((c) => c.mandatory || c.key === key || visible.includes(c.key)).map((c) => c.key)
        : visible.filter((k) => k !== key),
    );

  return (
    <DisclosureDropdown
      className="column-settings"
      buttonClassName="btn btn-outline-secondary d-inline-flex align-items-center gap-2"
      button={
        <>
          <ColumnsIcon size={16} />
          {label}
        </>
      }
    >
      {() => (
        <fieldset className="p-3">
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
      )}
    </DisclosureDropdown>
  );
}
