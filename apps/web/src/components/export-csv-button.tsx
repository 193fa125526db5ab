import { lazy, Suspense, useRef, useState } from 'react';
import type { ExportColumnHeaders } from '@app/contract/export-columns';
import type { QueryParams } from '../lib/api-client.ts';
import { notifyError } from '../lib/api-client.ts';

export type ExportCsvButtonProps = {
  /** The list's export route and its query (the list's filters). */
  path: string;
  query: QueryParams;
  /**
   * The columns shown, in the admin's order (decision 057), and those the export can write (the
   * contract's, keyed as the table's columns): the file holds the shown ones, in that order.
   */
  columns: { shown: readonly string[]; exportable: ExportColumnHeaders };
  /** How many rows the list says match, for the progress bar (an estimate is fine). */
  expectedRows: number | undefined;
  /** The file's name without the date and extension, e.g. 'devices'. */
  fileName: string;
};

// The download and its progress bar are not needed to show a list: they load when the pointer or
// focus reaches the button, and are awaited on the click.
const loadExport = () => import('./export-csv-progress.tsx');
const ExportProgress = lazy(() => loadExport().then((m) => ({ default: m.ExportProgress })));
const preloadExport = () => void loadExport();

/**
 * "Export CSV" (issue 17 item 3): the server streams exactly the filtered rows in the columns shown;
 * the button shows how many have arrived against how many match, and can stop the download.
 */
export function ExportCsvButton({ expectedRows, ...request }: ExportCsvButtonProps) {
  const [rows, setRows] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setRows(0);
    try {
      const { runExport } = await loadExport();
      await runExport(request, { signal: controller.signal, onRows: setRows });
    } catch (error) {
      if (!controller.signal.aborted) notifyError(error, 'The export failed. Try again.');
    } finally {
      abort.current = null;
      setRows(null);
    }
  };

  if (rows === null)
    return (
      <button
        type="button"
        className="btn btn-outline-primary"
        onClick={() => void start()}
        onPointerEnter={preloadExport}
        onFocus={preloadExport}
      >
        Export CSV
      </button>
    );
  return (
    <Suspense
      fallback={
        <span className="small text-nowrap" role="status">
          Starting the export…
        </span>
      }
    >
      <ExportProgress rows={rows} expectedRows={expectedRows} onCancel={() => abort.current?.abort()} />
    </Suspense>
  );
}
