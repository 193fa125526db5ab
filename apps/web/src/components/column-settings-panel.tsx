import { useId, useState } from 'react';
import type { ColumnSettingsProps } from './column-settings.tsx';

/**
 * The column chooser's panel (ColumnSettings): a checkbox per column (mandatory ones checked and
 * disabled) and, on each shown column, Move up and Move down (decision 057). The rows are the shown
 * columns in the table's order; a column turned on takes its row's place. A module of its own, loaded
 * when the chooser is about to open: no list needs it to show its first screen.
 */
export function ColumnSettingsPanel({ columns, visible, onChange }: Omit<ColumnSettingsProps, 'label'>) {
  const panelId = useId();
  const [announcement, setAnnouncement] = useState('');

  const byKey = new Map(columns.map((c) => [c.key, c]));
  const shown = [
    ...visible.filter((key) => byKey.has(key)),
    ...columns.filter((c) => c.mandatory && !visible.includes(c.key)).map((c) => c.key),
  ];
  const rows = shown.map((key) => byKey.get(key)!);
  // A hidden column's row sits where the list's own order puts it among the shown ones, so turning
  // it off and on again moves nothing.
  columns.forEach((column, index) => {
    if (shown.includes(column.key)) return;
    const later = rows.findIndex((c) => columns.indexOf(c) > index);
    rows.splice(later < 0 ? rows.length : later, 0, column);
  });

  const toggle = (key: string, checked: boolean) =>
    onChange(
      checked
        ? rows.filter((c) => c.key === key || shown.includes(c.key)).map((c) => c.key)
        : shown.filter((k) => k !== key),
    );
  const move = (key: string, by: -1 | 1) => {
    const from = shown.indexOf(key);
    const to = from + by;
    if (from < 0 || to < 0 || to >= shown.length) return;
    const next = [...shown];
    [next[from], next[to]] = [next[to]!, next[from]!];
    // Rows are keyed by column, so the pressed button stays the focused element (React keeps focus
    // across the reorder): the keyboard user stays on the item they moved (WCAG 2.4.3).
    setAnnouncement(`${byKey.get(key)!.header} moved to position ${to + 1} of ${shown.length}.`);
    onChange(next);
  };

  return (
    <fieldset className="p-3">
      <legend className="fs-6 fw-semibold mb-2">Show columns</legend>
      {rows.map((column) => {
        const id = `${panelId}-show-${column.key}`;
        const position = shown.indexOf(column.key);
        const checked = position >= 0;
        return (
          <div className="d-flex align-items-center gap-2 mb-1 text-nowrap" key={column.key}>
            <div className="form-check mb-0 me-auto">
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
            {checked ? (
              <>
                <MoveButton
                  label={`Move ${column.header} up`}
                  inert={position === 0}
                  onClick={() => move(column.key, -1)}
                  arrow="↑"
                />
                <MoveButton
                  label={`Move ${column.header} down`}
                  inert={position === shown.length - 1}
                  onClick={() => move(column.key, 1)}
                  arrow="↓"
                />
              </>
            ) : null}
          </div>
        );
      })}
      <div className="visually-hidden" aria-live="polite">
        {announcement}
      </div>
    </fieldset>
  );
}

/**
 * aria-disabled rather than disabled at either end: a disabled button loses focus, and the admin
 * who just moved a column there would be left nowhere.
 */
function MoveButton({
  label,
  inert,
  onClick,
  arrow,
}: {
  label: string;
  inert: boolean;
  onClick: () => void;
  arrow: string;
}) {
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-secondary column-move"
      aria-label={label}
      title={label}
      aria-disabled={inert || undefined}
      onClick={inert ? undefined : onClick}
    >
      <span aria-hidden="true">{arrow}</span>
    </button>
  );
}
