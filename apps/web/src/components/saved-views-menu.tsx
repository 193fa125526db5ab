import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { SavedView } from '@app/contract/preferences';
import { preferenceMessages } from '@app/contract/preferences';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { DisclosureDropdown } from '#web/components/disclosure-dropdown.tsx';
import { Link } from '#web/components/link.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useDeleteView, useSavedViews } from '#web/lib/saved-views.ts';
import { SaveViewModal } from './save-view-modal.tsx';
import type { ListColumns } from './use-column-visibility.ts';

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
  const views = useSavedViews(list);
  const remove = useDeleteView();

  return (
    <>
      <DisclosureDropdown button="Views">
        {(close) => (
          <div className="p-2">
            {views.isPending ? (
              <p className="text-body-secondary small mb-2 px-2">Loading views…</p>
            ) : views.isError ? (
              <p className="text-danger small mb-2 px-2">The views could not be loaded.</p>
            ) : views.data.length === 0 ? (
              <p className="text-body-secondary small mb-2 px-2">No saved views yet.</p>
            ) : (
              <ul className="list-unstyled mb-2" aria-label="Saved views">
                {views.data.map((view) => (
                  <li key={view._id} className="d-flex align-items-center gap-2">
                    <Link
                      className="dropdown-item rounded"
                      to={`${location.pathname}${view.query ? `?${view.query}` : ''}`}
                      onClick={close}
                    >
                      {view.name}
                      <span className="small text-body-secondary">
                        {view.mine ? (view.shared ? ' (shared)' : '') : ` (shared by ${view.ownerName})`}
                      </span>
                    </Link>
                    {view.mine ? (
                      <button
                        type="button"
                        className="btn btn-sm btn-link text-danger"
                        aria-label={`Delete view ${view.name}`}
                        onClick={() => setDeleting(view)}
                      >
                        Delete
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
            <button
              type="button"
              className="btn btn-sm btn-primary w-100"
              onClick={() => (setSaving(true), close())}
            >
              Save current view
            </button>
          </div>
        )}
      </DisclosureDropdown>
      <SaveViewModal
        list={list}
        query={viewQueryOf(location.search, columns.visible)}
        show={saving}
        onClose={() => setSaving(false)}
      />
      <ConfirmModal
        show={deleting !== null}
        text={`Delete the view "${deleting?.name ?? ''}"?`}
        isPending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          remove.mutate(deleting!._id, {
            onSuccess: () => (notify.success(preferenceMessages.viewDeleted), setDeleting(null)),
            onError: (error) => notifyError(error),
          })
        }
      />
    </>
  );
}

/**
 * A followed view's (or link's) columns become the admin's choice for the list, kept like any other
 * (decision 057), and leave the URL: the chooser stays the one place the columns are changed, and
 * going back does not apply them again. Keys the list does not know are dropped.
 */
function useViewColumns({ choices, setVisible }: ListColumns) {
  const [params, setParams] = useSearchParams();
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
