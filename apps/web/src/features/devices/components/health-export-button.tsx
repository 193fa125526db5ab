import { useId, useState, type ComponentProps } from 'react';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { useCan } from '#web/lib/use-session.ts';

type Props = ComponentProps<typeof ExportCsvButton> & {
  /** What the file holds unmasked when asked, e.g. 'contact details'. */
  masked: string;
};

/**
 * Export CSV of a list of health data (decision 058): the file is masked as the list is; an admin
 * whose role carries patients.reveal may tick "unmasked" first, which the audit trail records.
 */
export function HealthExportButton({ masked, query, ...button }: Props) {
  const mayReveal = useCan('patients.reveal');
  const [unmasked, setUnmasked] = useState(false);
  const id = useId();
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-end gap-3">
      {mayReveal ? (
        <div className="form-check mb-0">
          <input
            id={id}
            type="checkbox"
            className="form-check-input"
            checked={unmasked}
            onChange={(e) => setUnmasked(e.target.checked)}
          />
          <label htmlFor={id} className="form-check-label">
            Export {masked} unmasked (recorded)
          </label>
        </div>
      ) : null}
      <ExportCsvButton {...button} query={{ ...query, reveal: unmasked ? 'true' : undefined }} />
    </div>
  );
}
