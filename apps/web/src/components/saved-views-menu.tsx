import { useState } from 'react';
import { useLocation } from 'react-router';
import type { ListKey, SavedView } from '@app/contract/preferences';
import { preferenceMessages } from '@app/contract/preferences';
import { ConfirmModal } from '#web/components/confirm-modal.tsx';
import { DisclosureDropdown } from '#web/components/disclosure-dropdown.tsx';
import { Link } from '#web/components/link.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { notify } from '#web/lib/notify.ts';
import { useDeleteView, useSavedViews } from '#web/lib/saved-views.ts';
import { SaveViewModal } from './save-view-modal.tsx';

/** The list's URL query as a view keeps it: everything but the page, which a view starts at 1. */
export function viewQueryOf(search: string) {
  const params = new URLSearchParams(search);
  params.delete('page');
  return params.toString();
}

/**
 * Saved views of a list (issue 17, decision 053): the admin's own and every shared one, each a link
 * to the list with its filters, search, sort and page size (the URL holds them, so a view can be
 * linked too); "Save current view" names what is on screen; the owner may delete a view.
 */
export function SavedViewsMenu({ list }: { list: ListKey }) {
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
        query={viewQueryOf(location.search)}
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
