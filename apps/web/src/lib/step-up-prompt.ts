import type { StepUpRequest } from '../components/step-up-dialog.tsx';

/*
 * A dangerous action answers 403 with `data.stepUpRequired` until the admin has confirmed the
 * password on this session within the last few minutes (docs/decisions/046). The API client asks
 * here, then sends the request again once. The dialog is loaded on the first ask (it is no part of
 * any first screen); requests refused at the same moment share one dialog.
 */

/** The `data` of a step-up refusal: whether the dialog must ask for a code too; null for any other answer. */
export function stepUpAsked(status: number, data: unknown): { needsCode: boolean } | null {
  if (status !== 403 || typeof data !== 'object' || data === null) return null;
  const asked = data as { stepUpRequired?: unknown; needsCode?: unknown };
  return asked.stepUpRequired === true ? { needsCode: asked.needsCode === true } : null;
}

let open: Promise<boolean> | null = null;

/** Resolves true once the admin has confirmed, false when they cancelled. */
export function askForStepUp(request: StepUpRequest): Promise<boolean> {
  open ??= import('../components/step-up-dialog.tsx')
    .then(({ openStepUpDialog }) => openStepUpDialog(request))
    .finally(() => {
      open = null;
    });
  return open;
}
