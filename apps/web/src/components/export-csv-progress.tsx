import { formatCount } from '@app/contract/count-format';
import { fetchFile, saveFile } from '../lib/api-stream.ts';
import { notify } from '../lib/notify.ts';
import type { ExportCsvButtonProps } from './export-csv-button.tsx';

/*
 * ExportCsvButton's running part: the streamed download and its progress bar. A module of its own,
 * loaded when the pointer or focus reaches the button (or on the click): no list needs it to show.
 */

/** `columns=a,b,c`: the shown columns the export writes, in order (none: the list's defaults). */
const exportedColumns = ({ shown, exportable }: ExportCsvButtonProps['columns']) =>
  shown.filter((key) => Object.hasOwn(exportable, key)).join(',') || undefined;

/**
 * Downloads the export, reporting the rows received as they arrive (the header line is not a row),
 * saves it under the file name with today's date, and says how many rows it held. Throws as
 * fetchFile does (an aborted download included).
 */
export async function runExport(
  { path, query, columns, fileName }: Omit<ExportCsvButtonProps, 'expectedRows'>,
  { signal, onRows }: { signal: AbortSignal; onRows: (rows: number) => void },
) {
  let received = 0;
  const blob = await fetchFile(
    path,
    { ...query, columns: exportedColumns(columns) },
    { signal, onProgress: ({ lines }) => onRows((received = Math.max(0, lines - 1))) },
  );
  saveFile(blob, `${fileName}-${new Date().toISOString().slice(0, 10)}.csv`);
  notify.success(`Exported ${formatCount(received)} rows`);
}

/** How many rows have arrived against how many match, and a button that stops the download. */
export function ExportProgress({
  rows,
  expectedRows,
  onCancel,
}: {
  rows: number;
  expectedRows: number | undefined;
  onCancel: () => void;
}) {
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
        aria-valuetext={`Exported ${formatCount(rows)}${total ? ` of ${formatCount(total)}` : ''} rows`}
      >
        <div className="progress-bar" style={{ width: `${percent ?? 100}%` }} />
      </div>
      <span className="small text-nowrap" aria-hidden="true">
        {formatCount(rows)}
        {total ? ` / ${formatCount(total)}` : ''} rows
      </span>
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onCancel}>
        Cancel export
      </button>
    </div>
  );
}
