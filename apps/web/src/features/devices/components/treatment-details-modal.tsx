import { treatmentMessages } from '@app/contract/treatments';
import { Modal } from '#web/components/modal.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { formatDateTime, orNA } from '#web/lib/format.ts';
import { useTreatment } from '../api/get-treatment.ts';

const unit = (value: number | null, suffix: string) => (value === null ? orNA(null) : `${value} ${suffix}`);

/** The treatment's fields and its images (docs/product.md §3.7 "Treatment"). */
export function TreatmentDetailsModal({
  treatmentId,
  onClose,
}: {
  treatmentId: string | null;
  onClose: () => void;
}) {
  const { data: treatment, isPending } = useTreatment(treatmentId);
  const fields = treatment
    ? [
        ['User Name', orNA(treatment.userName)],
        ['Treatment Device', orNA(treatment.treatmentDevice)],
        ['Treatment Plan', orNA(treatment.treatmentPlan)],
        ['Start Time', formatDateTime(treatment.treatmentStartTime)],
        ['End Time', formatDateTime(treatment.treatmentEndTime)],
        ['Duration', unit(treatment.treatmentDuration, 'min')],
        ['Treatment Energy', unit(treatment.treatmentEnergy, 'J')],
        ['Total Energy Output', unit(treatment.totalEnergyOutput, 'J')],
        ['Doctor', orNA(treatment.doctorName)],
        ['Machine Number', orNA(treatment.machineNumber)],
      ]
    : [];
  return (
    <Modal show={treatmentId !== null} onClose={onClose} title="Treatment Details" size="lg">
      {isPending ? (
        <Spinner />
      ) : !treatment ? (
        <p className="mb-0">{treatmentMessages.noneFound}</p>
      ) : (
        <>
          <dl className="row mb-2">
            {fields.map(([label, value]) => (
              <div key={label} className="col-sm-6 mb-3">
                <dt className="small text-body-secondary fw-semibold">{label}</dt>
                <dd className="mb-0">{value}</dd>
              </div>
            ))}
          </dl>
          <h3 className="h6">Treatment Images</h3>
          {treatment.treatmentImages.length === 0 ? (
            <p className="text-body-secondary mb-0">No images.</p>
          ) : (
            <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
              {treatment.treatmentImages.map((image, index) => (
                <li key={image.id}>
                  <img
                    src={image.url}
                    alt={`Treatment image ${index + 1}`}
                    width={160}
                    height={120}
                    className="rounded border"
                  />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Modal>
  );
}
