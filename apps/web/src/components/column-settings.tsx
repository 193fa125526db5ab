import { lazy } from 'react';
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
  /** The shown columns, in the order the table shows them. */
  visible: readonly string[];
  onChange: (visible: string[]) => void;
  label?: string;
};

// The panel is not needed to show a list: it loads when the pointer or focus reaches the button.
const loadPanel = () => import('./column-settings-panel.tsx');
const ColumnSettingsPanel = lazy(() => loadPanel().then((m) => ({ default: m.ColumnSettingsPanel })));
const preloadPanel = () => void loadPanel();

/**
 * A dropdown to show, hide and order a list's columns (issue 17): a checkbox per column (mandatory
 * ones checked and disabled) and, on each shown column, Move up and Move down (decision 057), in
 * column-settings-panel.tsx.
 */
export function ColumnSettings({ columns, visible, onChange, label = 'Columns' }: ColumnSettingsProps) {
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
      onIntent={preloadPanel}
    >
      {() => <ColumnSettingsPanel columns={columns} visible={visible} onChange={onChange} />}
    </DisclosureDropdown>
  );
}
