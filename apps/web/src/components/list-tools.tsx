import { ColumnSettings } from './column-settings.tsx';
import { SavedViewsMenu } from './saved-views-menu.tsx';
import type { ListColumns } from './use-column-visibility.ts';

export type { ListColumns };

/**
 * A list's Views menu and column chooser, side by side (issue 17). `views={false}` where the list's
 * state is not in the URL (a table among several on a record's page): a view would hold nothing.
 */
export function ListTools({ columns, views = true }: { columns: ListColumns; views?: boolean }) {
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 ms-auto">
      {views ? <SavedViewsMenu columns={columns} /> : null}
      <ColumnSettings columns={columns.choices} visible={columns.visible} onChange={columns.setVisible} />
    </div>
  );
}
