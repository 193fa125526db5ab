import { useParams } from 'react-router';
import { deviceUserMessages, deviceUserStatusLabels } from '@app/contract/device-users';
import { treatmentMessages } from '@app/contract/treatments';
import { Tabs } from '#web/components/tabs.tsx';
import { formatDateTime, orNA } from '#web/lib/format.ts';
import { useDoctor } from '../api/get-doctor.ts';
import { DetailsCard, SectionCard } from '#web/components/details-card.tsx';
import { PatientsTable } from '../components/device-user-tables.tsx';
import { DeviceUserHeader, useDeviceIdFromState } from '../components/device-user-header.tsx';
import { TreatmentsTable } from '../components/treatments-table.tsx';
import { AccessHistoryTable } from '../components/access-history-table.tsx';
import { LogsSection } from '../components/logs-section.tsx';
import { useContactReveal } from '../components/contact-reveal.tsx';

/** /admin/view-doctor/:id (docs/product.md §2.7 "Doctor page"). */
export function ViewDoctorPage() {
  const { id = '' } = useParams();
  const deviceId = useDeviceIdFromState();
  const { data, isPending } = useDoctor(id);
  const { shown: doctor, action, mayReveal } = useContactReveal('doctor', data);
  return (
    <>
      <DeviceUserHeader title="Doctor Details" />
      <DetailsCard
        title="Doctor Details"
        isLoading={isPending}
        actions={action}
        missing={!isPending && !doctor}
        missingText={deviceUserMessages.doctorsNoneFound}
        items={
          doctor
            ? [
                { label: 'Doctor ID', value: doctor.userId },
                { label: 'User Name', value: doctor.userName },
                { label: 'Email', value: doctor.email },
                { label: 'Phone Number', value: doctor.phonenumber },
                { label: 'Created Time', value: formatDateTime(doctor.createTime) },
                { label: 'Status', value: orNA(deviceUserStatusLabels[doctor.status]) },
                { label: 'Address', value: doctor.address },
              ]
            : []
        }
      />
      {doctor ? (
        <>
          <SectionCard title="Patient And Treatment Details">
            <Tabs
              label="Patient and treatment details"
              tabs={[
                {
                  id: 'patients',
                  label: 'Patients List',
                  render: () => <PatientsTable doctorId={doctor._id} deviceId={deviceId} />,
                },
                {
                  id: 'treatments',
                  label: 'Treatment List',
                  render: () => (
                    <TreatmentsTable
                      doctorId={doctor._id}
                      emptyText={treatmentMessages.empty}
                      label="Treatments"
                    />
                  ),
                },
              ]}
            />
          </SectionCard>
          <LogsSection title="Logs Details" userId={String(doctor.userId)} />
          {mayReveal ? (
            <SectionCard title="Access History">
              <AccessHistoryTable kind="doctor" id={doctor._id} />
            </SectionCard>
          ) : null}
        </>
      ) : null}
    </>
  );
}
