import { lazy, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import type { SavedView } from '@app/contract/preferences';
import { DisclosureDropdown } from '#web/components/disclosure-dropdown.tsx';
import { useUrlSearchParams } from '#web/lib/use-url-search-params.ts';
import { MountWhenShown } from './mount-when-shown.tsx';
import type { ListColumns } from './use-column-visibility.ts';

/*
 * The panel (with the views' query), its delete confirmation and the save dialog are not needed to
 * show a list: they load, and the views are asked for, when the pointer or focus reaches the Views
 * button.
 */
const loadPanel = () => import('./saved-views-panel.tsx');
const SavedViewsPanel = lazy(() => loadPanel().then((m) => ({ default: m.SavedViewsPanel })));
const DeleteViewConfirm = lazy(() => loadPanel().then((m) => ({ default: m.DeleteViewConfirm })));
const loadSaveModal = () => import('./save-view-modal.tsx');
const SaveViewModal = lazy(() => loadSaveModal().then((m) => ({ default: m.SaveViewModal })));

/**
 * The list's URL query as a view keeps it: everything but the page, which a view starts at 1, and
 * the columns shown, in order (`columns`, applied by the list when the view is followed: ListTools).
 */
export function viewQueryOf(search: string, columns: readonly string[]) {
  const params = new URLSearchParams(search);
  params.delete('page');
  params.set(viewColumnsParam, columns.join(','));
  return params.toString();
}
export const viewColumnsParam = 'columns';

/**
 * Saved views of a list (issue 17, decision 053): the admin's own and every shared one, each a link
 * to the list with its filters, search, sort and page size (the URL holds them, so a view can be
 * linked too) and its columns; "Save current view" names what is on screen; the owner may delete a view.
 */
export function SavedViewsMenu({ columns }: { columns: ListColumns }) {
  const { list } = columns;
  useViewColumns(columns);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const location = useLocation();
  const queryClient = useQueryClient();
  const preload = () => {
    void loadPanel().then((m) => m.prefetchSavedViews(queryClient, list));
    void loadSaveModal();
  };

  return (
    <>
      <DisclosureDropdown button="Views" onIntent={preload}>
        {(close) => (
          <SavedViewsPanel list={list} close={close} onSave={() => setSaving(true)} onDelete={setDeleting} />
        )}
      </DisclosureDropdown>
      <MountWhenShown show={saving}>
        <SaveViewModal
          list={list}
          query={viewQueryOf(location.search, columns.visible)}
          show={saving}
          onClose={() => setSaving(false)}
        />
      </MountWhenShown>
      <MountWhenShown show={deleting !== null}>
        <DeleteViewConfirm view={deleting} onClose={() => setDeleting(null)} />
      </MountWhenShown>
    </>
  );
}

/**
 * A followed view's (or link's) columns become the admin's choice for the list, kept like any other
 * (decision 057), and leave the URL: the chooser stays the one place the columns are changed, and
 * going back does not apply them again. Keys the list does not know are dropped.
 */
function useViewColumns({ choices, setVisible }: ListColumns) {
  const [params, setParams] = useUrlSearchParams();
  const asked = params.get(viewColumnsParam);
  useEffect(() => {
    if (asked === null) return;
    const known = asked.split(',').filter((key) => choices.some((c) => c.key === key));
    // A mandatory column the view leaves out shows first, as it does before any choice.
    const missing = choices.filter((c) => c.mandatory && !known.includes(c.key)).map((c) => c.key);
    if (known.length > 0) setVisible([...missing, ...known]);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(viewColumnsParam);
        return next;
      },
      { replace: true },
    );
    // Only a new `columns` in the URL applies; the choices and the setter are new every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [asked]);
}
