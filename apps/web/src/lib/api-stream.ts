import { authHeaders, buildUrl, settle, type QueryParams } from './api-client.ts';

export type StreamProgress = { bytes: number; lines: number };

/** The file name a Content-Disposition header gives (`attachment; filename="…"`), if any. */
const fileNameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? '')?.[1];

/**
 * A long GET answered as a file (an export, a machine's diagnostics): read as it streams, so the
 * caller can show progress, and handed back whole as a File named as the server named it ('download'
 * when it did not). A refusal arrives as JSON before any row, and is thrown as the ApiError every
 * other call throws (the 401 rule included).
 */
export async function fetchFile(
  path: string,
  query: QueryParams,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (progress: StreamProgress) => void },
): Promise<File> {
  const response = await fetch(buildUrl(path, query), { headers: authHeaders(), signal });
  if (!response.ok || !response.body) {
    settle(response.status, await response.text(), {});
    throw new Error(`Unexpected answer ${response.status}`);
  }
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  const progress: StreamProgress = { bytes: 0, lines: 0 };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    progress.bytes += value.byteLength;
    // Line ends (byte 10) count rows; a newline inside a quoted cell is rare and only nudges the bar.
    for (const byte of value) if (byte === 10) progress.lines += 1;
    onProgress?.({ ...progress });
  }
  return new File(
    parts as BlobPart[],
    fileNameOf(response.headers.get('content-disposition')) ?? 'download',
    {
      type: response.headers.get('content-type') ?? 'text/csv',
    },
  );
}

/** Saves a Blob under a file name, as a link with `download` does. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
