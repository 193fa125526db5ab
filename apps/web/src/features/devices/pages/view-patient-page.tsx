import { useParams } from 'react-router';
import { deviceUserMessages } from '@app/contract/device-users';
import { Tabs } from '#web/components/tabs.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { usePatient } from '../api/get-patient.ts';
import { DetailsCard, SectionCard } from '#web/components/details-card.tsx';
import { DeviceUserHeader } from '../components/device-user-header.tsx';
import { TreatmentsTable } from '../components/treatments-table.tsx';
import { AccessHistoryTable } from '../components/access-history-table.tsx';
import { LogsSection } from '../components/logs-section.tsx';
import { useContactReveal } from '../components/contact-reveal.tsx';
import { useBreakGlassAccess } from '../components/break-glass-access.tsx';
import { ErasureRequestAction } from '#web/components/erasure-request-modal.tsx';

/** /admin/view-patient/:id (docs/product.md §2.7 "Patient page"). */
export function ViewPatientPage() {
  const { id = '' } = useParams();
  const { data, isPending } = usePatient(id);
  const { shown, action, mayReveal } = useContactReveal('patient', data);
  // An admin who cannot reveal may break the glass in an emergency instead (decision 082).
  const glass = useBreakGlassAccess(shown, !mayReveal);
  const patient = glass.shown;
  return (
    <>
      <DeviceUserHeader title="Patient Details" />
      {glass.notice}
      <DetailsCard
        title="Patient Details"
        isLoading={isPending}
        actions={
          <div className="d-flex flex-wrap gap-2">
            {action ?? glass.action}
            {patient ? <ErasureRequestAction patientId={patient._id} /> : null}
          </div>
        }
        missing={!isPending && !patient}
        missingText={deviceUserMessages.patientsNoneFound}
        items={
          patient
            ? [
                { label: 'Patient Name', value: patient.patientname },
                { label: 'Email', value: patient.email },
                { label: 'Phone Number', value: patient.phone },
                { label: 'Created Time', value: formatDateTime(patient.createTime) },
              ]
            : []
        }
      />
      {patient ? (
        <>
          <SectionCard title="Treatment Details">
            <Tabs
              label="Treatment details"
              tabs={[
                {
                  id: 'treatments',
                  label: 'Treatment List',
                  // Only this patient's treatments (issue 35): the spec's filter by the patient's
                  // doctorid listed every patient of that doctor (docs/product.md §4.7).
                  render: () => (
                    <TreatmentsTable
                      patientId={patient._id}
                      emptyText={deviceUserMessages.noTreatmentPatients}
                      label="Treatments"
                    />
                  ),
                },
              ]}
            />
          </SectionCard>
          <LogsSection title="Logs Details" userId={String(patient.userId)} />
          {mayReveal ? (
            <SectionCard title="Access History">
              <AccessHistoryTable kind="patient" id={patient._id} />
            </SectionCard>
          ) : null}
        </>
      ) : null}
    </>
  );
}
