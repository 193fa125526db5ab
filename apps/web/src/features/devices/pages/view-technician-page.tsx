import { useParams } from 'react-router';
import { deviceUserMessages, deviceUserStatusLabels } from '@app/contract/device-users';
import { formatDateTime, orNA } from '#web/lib/format.ts';
import { useTechnician } from '../api/get-technician.ts';
import { DetailsCard } from '#web/components/details-card.tsx';
import { DeviceUserHeader } from '../components/device-user-header.tsx';
import { LogsSection } from '../components/logs-section.tsx';

/** /admin/view-technician/:id (docs/product.md §2.7 "Technician page"). */
export function ViewTechnicianPage() {
  const { id = '' } = useParams();
  const { data: technician, isPending } = useTechnician(id);
  return (
    <>
      <DeviceUserHeader title="Technician Details" />
      <DetailsCard
        title="Technician Details"
        isLoading={isPending}
        missing={!isPending && !technician}
        missingText={deviceUserMessages.techniciansNoneFound}
        items={
          technician
            ? [
                { label: 'ID', value: technician.userId },
                { label: 'User Name', value: technician.userName },
                { label: 'Email', value: technician.email },
                { label: 'Phone Number', value: technician.phonenumber },
                { label: 'Created Time', value: formatDateTime(technician.createTime) },
                { label: 'Status', value: orNA(deviceUserStatusLabels[technician.status]) },
              ]
            : []
        }
      />
      {technician ? <LogsSection title="Logs Details" userId={String(technician.userId)} /> : null}
    </>
  );
}
