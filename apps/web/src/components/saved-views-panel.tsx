import type { QueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import type { ListKey, SavedView } from '@app/contract/preferences';
import { preferenceMessages } from '@app/contract/preferences';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { Link } from '#web/components/link.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { savedViewsQuery, useDeleteView, useSavedViews } from '#web/lib/saved-views.ts';

/*
 * SavedViewsMenu's panel and its delete confirmation: a module of its own, loaded when the pointer or
 * focus reaches the Views button, so a list's first screen neither carries them nor asks for the views.
 */

/** Asks for a list's views before its panel opens (they are then shown at once). */
export const prefetchSavedViews = (queryClient: QueryClient, list: ListKey) =>
  queryClient.prefetchQuery(savedViewsQuery(list));

/** The saved views of a list, each a link to it, a Delete on the admin's own, and "Save current view". */
export function SavedViewsPanel({
  list,
  close,
  onSave,
  onDelete,
}: {
  list: ListKey;
  close: () => void;
  onSave: () => void;
  onDelete: (view: SavedView) => void;
}) {
  const location = useLocation();
  const views = useSavedViews(list);
  return (
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
                  onClick={() => (onDelete(view), close())}
                >
                  Delete
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-sm btn-primary w-100" onClick={() => (onSave(), close())}>
        Save current view
      </button>
    </div>
  );
}

/** "Delete the view …?", then the deletion; `view` null: closed. */
export function DeleteViewConfirm({ view, onClose }: { view: SavedView | null; onClose: () => void }) {
  const remove = useDeleteView();
  return (
    <ConfirmModal
      show={view !== null}
      text={`Delete the view "${view?.name ?? ''}"?`}
      isPending={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(view!._id, {
          onSuccess: () => (notify.success(preferenceMessages.viewDeleted), onClose()),
          onError: (error) => notifyError(error),
        })
      }
    />
  );
}
