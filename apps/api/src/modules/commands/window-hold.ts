import { commandCatalogue, commandKinds, type CommandKind } from '@app/contract/commands';
import { insideWindow, type MaintenanceWindow } from '@app/contract/maintenance-windows';

/** What holds a command that waits for the window: the window closed, or a treatment running. */
export type WaitingReason = 'window' | 'treatment';

/** Why the machine cannot take a window-waiting command now, or null when it can. */
export function windowBlocks(
  window: MaintenanceWindow | null | undefined,
  busy: boolean,
  at: Date,
): WaitingReason | null {
  if (busy) return 'treatment';
  return insideWindow(window, at) ? null : 'window';
}

const windowKinds = commandKinds.filter((k) => commandCatalogue[k].waitsForWindow);

/** The kinds held back from the machine now (none while its window is open and it is idle). */
export const heldKinds = (
  window: MaintenanceWindow | null | undefined,
  busy: boolean,
  at: Date,
): CommandKind[] => (windowBlocks(window, busy, at) ? windowKinds : []);

/** Why this queued command waits, for the console; null when it goes with the machine's next call. */
export const waitingReason = (
  kind: CommandKind,
  state: string,
  window: MaintenanceWindow | null | undefined,
  busySince: Date | null,
  at: Date,
): WaitingReason | null =>
  state === 'queued' && commandCatalogue[kind].waitsForWindow
    ? windowBlocks(window, busySince !== null, at)
    : null;
