import { lazy } from 'react';
import type { BulkResultsModalProps } from './bulk-results-modal.tsx';
import type { ConfirmModalProps } from './confirm-modal.tsx';
import { MountWhenShown } from './mount-when-shown.tsx';

/*
 * The bulk actions' confirmation and results dialogs, loaded lazily: a list shows without them, they
 * are fetched when rows are first selected (preloadBulkDialogs, from SelectionBar), and each mounts the
 * first time it is shown and then stays, as an always-mounted dialog would.
 */
const loadConfirm = () => import('./confirm-modal.tsx');
const loadResults = () => import('./bulk-results-modal.tsx');
const ConfirmModal = lazy(() => loadConfirm().then((m) => ({ default: m.ConfirmModal })));
const BulkResultsModal = lazy(() => loadResults().then((m) => ({ default: m.BulkResultsModal })));

export const preloadBulkDialogs = () => void Promise.all([loadConfirm(), loadResults()]);

/** ConfirmModal, loaded lazily. */
export function LazyConfirmModal(props: ConfirmModalProps) {
  return (
    <MountWhenShown show={props.show}>
      <ConfirmModal {...props} />
    </MountWhenShown>
  );
}

/** BulkResultsModal, loaded lazily. */
export function LazyBulkResultsModal(props: BulkResultsModalProps) {
  return (
    <MountWhenShown show={props.action !== null && props.result !== null}>
      <BulkResultsModal {...props} />
    </MountWhenShown>
  );
}
