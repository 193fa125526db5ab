import { commandPaths } from '@app/contract/commands';
import { fetchFile, saveFile } from '#web/lib/api-stream.ts';

/**
 * GET commands/{id}/diagnostics (commands.send): the file an upload-diagnostics command brought,
 * saved under the name the API gives it. Fetched with the session's token, which a plain link lacks.
 */
export async function downloadDiagnostics(commandId: string) {
  const file = await fetchFile(commandPaths.diagnostics(encodeURIComponent(commandId)), {}, {});
  saveFile(file, file.name);
}
