import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { deviceMessages, deviceStatusLabels, type DeviceStatus } from '@app/contract/devices';
import { recordHistoryPaths } from '@app/contract/record-history';
import { treatmentMessages } from '@app/contract/treatments';
import { paths } from '#web/lib/paths.ts';
import { BackButton } from '#web/components/back-button.tsx';
import { Breadcrumbs } from '#web/components/breadcrumbs.tsx';
import { Link } from '#web/components/link.tsx';
import { PencilIcon } from '#web/components/icons.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { RecordHistorySection } from '#web/components/record-history.tsx';
import { Tabs } from '#web/components/tabs.tsx';
import { formatDate, formatDateTime, orNA } from '#web/lib/format.ts';
import { setDeviceDetail } from '#web/lib/session-store.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useDevice } from '../api/get-device.ts';
import { DetailsCard, SectionCard } from '#web/components/details-card.tsx';
import { AppVersionHistory } from '../components/app-version-history.tsx';
import { CommandsCard } from '../components/commands-card.tsx';
import { AppVersionText, lastSeenText, OnlineBadge } from '../components/device-check-in.tsx';
import { DeviceCustomerCard } from '../components/device-customer-card.tsx';
import { DeviceFormModal } from '../components/device-form-modal.tsx';
import { DeviceSubscriptionsCard } from '../components/device-subscriptions-card.tsx';
import { EnrolmentCard } from '../components/enrolment-card.tsx';
import { LicenceCard } from '../components/licence-card.tsx';
import { MaintenanceWindowCard } from '../components/maintenance-window-card.tsx';
import { MachineSettingsCard } from '../components/machine-settings-card.tsx';
import { LogsSection } from '../components/logs-section.tsx';
import { DoctorsTable, PatientsTable, TechniciansTable } from '../components/device-user-tables.tsx';
import { SubscriptionStatus, subscriptionOf } from '../components/subscription-status.tsx';
import { TreatmentsTable } from '../components/treatments-table.tsx';

/** /admin/device-details/:id (docs/product.md §2.6 "Device Details"). */
export function DeviceDetailsPage() {
  const { id = '' } = useParams();
  const { data: device, isPending } = useDevice(id);
  const [editing, setEditing] = useState(false);
  // What else the admin's role lets them see or do here (decision 047).
  const mayEdit = useCan('devices.edit');
  const mayViewHealthData = useCan('patients.view');
  const mayViewCustomers = useCan('customers.view');

  // docs/product.md §3.1: the session keeps the device being looked at.
  useEffect(() => {
    if (device) setDeviceDetail({ ...device });
  }, [device]);

  const subscription = device ? subscriptionOf(device) : null;
  const items = device
    ? [
        { label: 'Machine Number', value: device.machineNumber },
        { label: 'Serial Number', value: device.serialNumber },
        { label: 'Status', value: orNA(deviceStatusLabels[device.status as DeviceStatus]) },
        { label: 'Location', value: device.location },
        { label: 'City', value: device.city },
        { label: 'Country', value: device.country },
        { label: 'Address', value: device.address },
        { label: 'Latitude', value: device.latitude },
        { label: 'Longitude', value: device.longitude },
        { label: 'Subscription Status', value: <SubscriptionStatus device={device} /> },
        // docs/product.md §3.2: the expiry shows only for a recurring plan.
        ...(subscription?.latest?.isRecurring
          ? [{ label: 'Subscription Expiry', value: formatDate(subscription.latest.expiredAt) }]
          : []),
        { label: 'Created Time', value: formatDateTime(device.createdAt) },
        { label: 'Last Seen', value: lastSeenText(device) },
        { label: 'Online', value: <OnlineBadge device={device} /> },
        { label: 'App Version', value: <AppVersionText device={device} /> },
        // Ours (issue 39): who holds it now; the Customer card below has its history.
        ...(mayViewCustomers
          ? [
              {
                label: 'Customer',
                value: device.customerId ? (
                  <Link to={paths.viewCustomer.href({ id: device.customerId })}>{device.customerName}</Link>
                ) : (
                  'None (at the supplier)'
                ),
              },
            ]
          : []),
      ]
    : [];
  const machineNumber = device?.machineNumber;

  return (
    <>
      <PageHeader title="Device Details" actions={<BackButton to={paths.devices.href()} />}>
        <Breadcrumbs
          items={[
            { label: 'Device Management', to: paths.devices.href() },
            { label: 'Device View', to: paths.deviceDetails.href({ id }) },
          ]}
        />
      </PageHeader>
      <DetailsCard
        title="Device Details"
        items={items}
        isLoading={isPending}
        missing={!isPending && !device}
        missingText={deviceMessages.noneFound}
        actions={
          device && mayEdit ? (
            <button
              type="button"
              className="btn btn-sm btn-outline-primary d-inline-flex align-items-center gap-1"
              onClick={() => setEditing(true)}
            >
              <PencilIcon size={16} />
              Edit
            </button>
          ) : null
        }
      />
      {device && mayViewCustomers ? <DeviceCustomerCard device={device} /> : null}
      {device ? <LicenceCard device={device} /> : null}
      {device ? <DeviceSubscriptionsCard device={device} /> : null}
      {device ? <EnrolmentCard device={device} /> : null}
      {device ? <CommandsCard device={device} /> : null}
      {device ? <MaintenanceWindowCard device={device} /> : null}
      {device ? <MachineSettingsCard device={device} /> : null}
      {device ? <RecordHistorySection kind="device" path={recordHistoryPaths.device(id)} /> : null}
      {device ? (
        <SectionCard title="App Version History">
          <AppVersionHistory deviceId={id} />
        </SectionCard>
      ) : null}
      {machineNumber && mayViewHealthData ? (
        <>
          <SectionCard title="Device Users">
            <Tabs
              label="Device users"
              tabs={[
                {
                  id: 'doctors',
                  label: 'Doctors',
                  render: () => <DoctorsTable machineNumber={machineNumber} deviceId={id} />,
                },
                {
                  id: 'patients',
                  label: 'Patients',
                  render: () => <PatientsTable machineNumber={machineNumber} deviceId={id} />,
                },
                {
                  id: 'technicians',
                  label: 'Technicians',
                  render: () => <TechniciansTable machineNumber={machineNumber} deviceId={id} />,
                },
              ]}
            />
          </SectionCard>
          <SectionCard title="Treatment Records">
            <TreatmentsTable
              machineNumber={machineNumber}
              emptyText={treatmentMessages.empty}
              label="Treatment records"
              searchable
            />
          </SectionCard>
        </>
      ) : null}
      {machineNumber ? <LogsSection title="Logs Management" machineNumber={machineNumber} /> : null}
      {mayEdit ? <DeviceFormModal show={editing} device={device} onClose={() => setEditing(false)} /> : null}
    </>
  );
}
