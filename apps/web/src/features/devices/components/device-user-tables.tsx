import type { ReactNode } from 'react';
import { Link } from '#web/components/link.tsx';
import {
  deviceUserMessages,
  deviceUserStatusLabels,
  doctorExportColumns,
  patientExportColumns,
  technicianExportColumns,
  type Doctor,
  type Patient,
  type Technician,
} from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { paths } from '#web/lib/paths.ts';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { EyeIcon } from '#web/components/base-icons.tsx';
import { DETAIL_PAGE_SIZES } from '#web/components/pager.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { ListTools } from '#web/components/list-tools.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { formatDateTime, orNA } from '#web/lib/format.ts';
import { useListState } from '#web/lib/use-list-state.ts';
import { useDoctors } from '../api/get-doctors.ts';
import { usePatients } from '../api/get-patients.ts';
import { useTechnicians } from '../api/get-technicians.ts';
import { HealthExportButton } from './health-export-button.tsx';

const statusBadge = (status: number) => (
  <StatusBadge label={orNA(deviceUserStatusLabels[status])} tone={status === 2 ? 'success' : 'secondary'} />
);

const doctorColumns: DataTableColumn<Doctor>[] = [
  { key: 'userId', header: 'Doctor ID' },
  // The column that names the row cannot be hidden (decision 057).
  { key: 'userName', header: 'User Name', mandatory: true },
  { key: 'email', header: 'Email' },
  { key: 'phonenumber', header: 'Phone Number', className: 'text-nowrap' },
  {
    key: 'createTime',
    header: 'Created Time',
    className: 'text-nowrap',
    render: (d) => formatDateTime(d.createTime),
  },
  { key: 'status', header: 'Status', render: (d) => statusBadge(d.status) },
];
const technicianColumns: DataTableColumn<Technician>[] = [
  { key: 'userId', header: 'ID' },
  { key: 'userName', header: 'User Name', mandatory: true },
  { key: 'email', header: 'Email' },
  { key: 'phonenumber', header: 'Phone Number', className: 'text-nowrap' },
  {
    key: 'createTime',
    header: 'Created Time',
    className: 'text-nowrap',
    render: (t) => formatDateTime(t.createTime),
  },
  { key: 'status', header: 'Status', render: (t) => statusBadge(t.status) },
];
const patientColumns: DataTableColumn<Patient>[] = [
  { key: 'patientname', header: 'Patient Name', mandatory: true },
  { key: 'email', header: 'Email' },
  { key: 'phone', header: 'Phone Number', className: 'text-nowrap' },
  { key: 'doctorName', header: 'Doctor' },
  {
    key: 'createTime',
    header: 'Created Time',
    className: 'text-nowrap',
    render: (p) => formatDateTime(p.createTime),
  },
];

/*
 * The three tables keep one list, 'device-users' (decision 057): one page size, and one column
 * choice where they share a column (User Name, Email, Created Time...). Each saves its own columns
 * and keeps the others' (useColumnVisibility's listColumns).
 */
const doctorChoices = columnChoicesOf(doctorColumns);
const technicianChoices = columnChoicesOf(technicianColumns);
const patientChoices = columnChoicesOf(patientColumns);
// Every column of the three, in an order that agrees with each table's own.
const deviceUserOrder = [
  'userId',
  'userName',
  'patientname',
  'email',
  'phonenumber',
  'phone',
  'doctorName',
  'createTime',
  'status',
];
const deviceUserChoices = deviceUserOrder.map((key) =>
  [...doctorChoices, ...patientChoices].find((c) => c.key === key)!,
);
const listOptions = { listKey: 'device-users', pageSizes: DETAIL_PAGE_SIZES } as const;

/**
 * The chooser above a device-user table; no Views menu: the page holds several lists and their state
 * is not in its URL, so a view would hold nothing.
 */
function Tools({ columns, children }: { columns: ReturnType<typeof useListColumns>; children: ReactNode }) {
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-end gap-2 mb-2">
      <ListTools columns={columns} views={false} />
      {children}
    </div>
  );
}

/** The eye button of a device-user row: its page, carrying the device id in navigation state (docs/product.md §2.6). */
function ViewLink({ to, deviceId, name }: { to: string; deviceId?: string; name: string }) {
  return (
    <Link
      to={to}
      state={deviceId ? { deviceId } : undefined}
      className="btn btn-sm btn-outline-secondary"
      aria-label={`View ${name}`}
      title="View"
    >
      <EyeIcon size={16} />
    </Link>
  );
}

type ListProps = { machineNumber?: string; deviceId?: string };

export function DoctorsTable({ machineNumber, deviceId }: ListProps) {
  const list = useListState(listOptions);
  const shown = useListColumns('device-users', doctorChoices, deviceUserChoices);
  const { data, isPending } = useDoctors({ page: list.page, limit: list.limit, machineNumber }, list.ready);
  return (
    <>
      <Tools columns={shown}>
        <HealthExportButton
          path={apiPaths.doctorsExport}
          query={{ machineNumber }}
          columns={{ shown: shown.visible, exportable: doctorExportColumns }}
          expectedRows={data?.total}
          fileName="doctors"
          masked="contact details"
        />
      </Tools>
      <TableWithPager
        label="Doctors"
        columns={doctorColumns}
        visibleColumns={shown.visible}
        rows={data?.data}
        getRowKey={(d) => d._id}
        emptyText={deviceUserMessages.noDoctors}
        isLoading={isPending}
        list={list}
        actions={(d) => (
          <ViewLink to={paths.viewDoctor.href({ id: d._id })} deviceId={deviceId} name={d.userName} />
        )}
        totalPages={data?.totalPages}
        pageSizeOptions={DETAIL_PAGE_SIZES}
        pagerLabel="Doctors pages"
        total={data?.total}
        noun={['doctor', 'doctors']}
      />
    </>
  );
}

/** Patients of a device, or of a doctor (docs/product.md §4.7: by the doctor's id). */
export function PatientsTable({ machineNumber, deviceId, doctorId }: ListProps & { doctorId?: string }) {
  const list = useListState(listOptions);
  const shown = useListColumns('device-users', patientChoices, deviceUserChoices);
  const { data, isPending } = usePatients(
    { page: list.page, limit: list.limit, machineNumber, doctorId },
    list.ready,
  );
  return (
    <>
      <Tools columns={shown}>
        <HealthExportButton
          path={apiPaths.patientsExport}
          query={{ machineNumber, doctorId }}
          columns={{ shown: shown.visible, exportable: patientExportColumns }}
          expectedRows={data?.total}
          fileName="patients"
          masked="contact details"
        />
      </Tools>
      <TableWithPager
        label="Patients"
        columns={patientColumns}
        visibleColumns={shown.visible}
        rows={data?.patientData}
        getRowKey={(p) => p._id}
        emptyText={deviceUserMessages.noPatients}
        isLoading={isPending}
        list={list}
        actions={(p) => (
          <ViewLink to={paths.viewPatient.href({ id: p._id })} deviceId={deviceId} name={p.patientname} />
        )}
        totalPages={data?.totalPages}
        pageSizeOptions={DETAIL_PAGE_SIZES}
        pagerLabel="Patients pages"
        total={data?.total}
        noun={['patient', 'patients']}
      />
    </>
  );
}

export function TechniciansTable({ machineNumber, deviceId }: ListProps) {
  const list = useListState(listOptions);
  const shown = useListColumns('device-users', technicianChoices, deviceUserChoices);
  const { data, isPending } = useTechnicians(
    { page: list.page, limit: list.limit, machineNumber },
    list.ready,
  );
  return (
    <>
      {/* Technicians' contact data is not masked (decision 045): nothing to reveal. */}
      <Tools columns={shown}>
        <ExportCsvButton
          path={apiPaths.techniciansExport}
          query={{ machineNumber }}
          columns={{ shown: shown.visible, exportable: technicianExportColumns }}
          expectedRows={data?.total}
          fileName="technicians"
        />
      </Tools>
      <TableWithPager
        label="Technicians"
        columns={technicianColumns}
        visibleColumns={shown.visible}
        rows={data?.data}
        getRowKey={(t) => t._id}
        emptyText={deviceUserMessages.noTechnicians}
        isLoading={isPending}
        list={list}
        actions={(t) => (
          <ViewLink to={paths.viewTechnician.href({ id: t._id })} deviceId={deviceId} name={t.userName} />
        )}
        totalPages={data?.totalPages}
        pageSizeOptions={DETAIL_PAGE_SIZES}
        pagerLabel="Technicians pages"
        total={data?.total}
        noun={['technician', 'technicians']}
      />
    </>
  );
}
