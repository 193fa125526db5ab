import { useRef, useState } from 'react';
import type { ExportColumnHeaders } from '@app/contract/export-columns';
import type { QueryParams } from '../lib/api-client.ts';
import { notifyError } from '../lib/api-client.ts';
import { fetchFile, saveFile } from '../lib/api-stream.ts';
import { notify } from '../lib/notify.ts';

type Props = {
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

const count = (n: number) => n.toLocaleString('en');

/** `columns=a,b,c`: the shown columns the export writes, in order (none: the list's defaults). */
const exportedColumns = ({ shown, exportable }: Props['columns']) =>
  shown.filter((key) => Object.hasOwn(exportable, key)).join(',') || undefined;

/**
 * "Export CSV" (issue 17 item 3): the server streams exactly the filtered rows in the columns shown;
 * the button shows how many have arrived against how many match, and can stop the download. The
 * header line is not a row.
 */
export function ExportCsvButton({ path, query, columns, expectedRows, fileName }: Props) {
  const [rows, setRows] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setRows(0);
    try {
      let received = 0;
      const blob = await fetchFile(
        path,
        { ...query, columns: exportedColumns(columns) },
        {
          signal: controller.signal,
          onProgress: ({ lines }) => setRows((received = Math.max(0, lines - 1))),
        },
      );
      saveFile(blob, `${fileName}-${new Date().toISOString().slice(0, 10)}.csv`);
      notify.success(`Exported ${count(received)} rows`);
    } catch (error) {
      if (!controller.signal.aborted) notifyError(error, 'The export failed. Try again.');
    } finally {
      abort.current = null;
      setRows(null);
    }
  };

  if (rows === null)
    return (
      <button type="button" className="btn btn-outline-primary" onClick={() => void start()}>
        Export CSV
      </button>
    );
  const total = expectedRows && expectedRows > 0 ? Math.max(expectedRows, rows) : undefined;
  const percent = total ? Math.round((rows / total) * 100) : undefined;
  return (
    <div className="d-flex align-items-center gap-2">
      <div
        className="progress"
        style={{ width: '10rem' }}
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`Exported ${count(rows)}${total ? ` of ${count(total)}` : ''} rows`}
      >
        <div className="progress-bar" style={{ width: `${percent ?? 100}%` }} />
      </div>
      <span className="small text-nowrap" aria-hidden="true">
        {count(rows)}
        {total ? ` / ${count(total)}` : ''} rows
      </span>
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        onClick={() => abort.current?.abort()}
      >
        Cancel export
      </button>
    </div>
  );
}
