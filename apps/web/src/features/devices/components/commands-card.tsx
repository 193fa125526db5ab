import { lazy, useState } from 'react';
import { commandCatalogue, commandMessages, commandStateLabels, type Command } from '@app/contract/commands';
import type { Device } from '@app/contract/devices';
import { commandWaitingLabels } from '@app/contract/maintenance-windows';
import type { DataTableColumn } from '#web/components/data-table.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { SectionCard } from '#web/components/details-card.tsx';
import { DownloadIcon } from '#web/components/icons.tsx';
import { MountWhenShown } from '#web/components/mount-when-shown.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DETAIL_PAGE_SIZES } from '#web/components/pager.tsx';
import { StatusBadge } from '#web/components/status-badge.tsx';
import { TruncatedText } from '#web/components/truncated-text.tsx';
import { notifyError } from '#web/lib/api-client.ts';
import { formatBytes, formatDate, formatDateTime, NA } from '#web/lib/format.ts';
import { notify } from '#web/lib/notify.ts';
import { useListState } from '#web/lib/use-list-state.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useCancelCommand } from '../api/cancel-command.ts';
import { downloadDiagnostics } from '../api/download-diagnostics.ts';
import { isOpen, useDeviceCommands } from '../api/get-device-commands.ts';
import { commandStateTones, paramsInWords } from './command-words.ts';

// The send dialog (its form and checks) loads when the admin reaches for its button.
const loadSendModal = () => import('./send-command-modal.tsx');
const SendCommandModal = lazy(() => loadSendModal().then((m) => ({ default: m.SendCommandModal })));

/**
 * When a command moved on after it was sent: the time alone on the day it was sent (the Sent column
 * has the date), so a row's three times fit a 1280 px window; the whole date-time on another day.
 */
const laterTime = (value: string, sent: string) =>
  formatDate(value) === formatDate(sent) ? formatDateTime(value, 'HH:mm:ss') : formatDateTime(value);
/** An open command's deadline, to the minute (a TTL is minutes to days). */
const expiry = (value: string, sent: string) =>
  formatDateTime(value, formatDate(value) === formatDate(sent) ? 'HH:mm' : 'DD/MM/YYYY HH:mm');
/** Names a row's buttons apart: "Cancel Sync now sent 01/03/2025 10:30:00". */
const rowName = (c: Command) => `${commandCatalogue[c.kind].label} sent ${formatDateTime(c.createdAt)}`;

const columns: DataTableColumn<Command>[] = [
  {
    key: 'kind',
    header: 'Command',
    render: (c) => {
      const words = paramsInWords(c);
      return (
        <>
          <span className="d-block text-nowrap fw-semibold">{commandCatalogue[c.kind].label}</span>
          {words ? (
            <span className="d-block small text-body-secondary">
              <TruncatedText text={words} maxWidth="14em" />
            </span>
          ) : null}
        </>
      );
    },
  },
  {
    key: 'state',
    header: 'State',
    render: (c) => (
      <>
        <StatusBadge label={commandStateLabels[c.state]} tone={commandStateTones[c.state]} />
        {c.waiting ? (
          <span className="d-block small text-body-secondary text-nowrap">
            {commandWaitingLabels[c.waiting]}
          </span>
        ) : null}
      </>
    ),
  },
  {
    key: 'createdAt',
    header: 'Sent',
    render: (c) => (
      <>
        <span className="d-block text-nowrap">{formatDateTime(c.createdAt)}</span>
        <span className="d-block small text-body-secondary">
          <TruncatedText text={`by ${c.createdBy}`} maxWidth="11em" />
        </span>
      </>
    ),
  },
  {
    key: 'deliveredAt',
    header: 'Delivered',
    className: 'text-nowrap',
    render: (c) => (c.deliveredAt ? laterTime(c.deliveredAt, c.createdAt) : NA),
  },
  {
    key: 'finishedAt',
    header: 'Finished',
    className: 'text-nowrap',
    // Until it finishes, when it will expire if the machine does not report.
    render: (c) =>
      c.finishedAt ? (
        laterTime(c.finishedAt, c.createdAt)
      ) : isOpen(c) ? (
        <span className="d-block small text-body-secondary">
          Expires
          <br />
          {expiry(c.expiresAt, c.createdAt)}
        </span>
      ) : (
        NA
      ),
  },
  { key: 'message', header: 'Message', truncate: '12em', render: (c) => c.message ?? NA },
];

/**
 * Device Details "Commands" (issue 37 item 5): what was sent to the machine, newest first, with each
 * copy's state, who sent it, when it was delivered and finished, and the app's message; the list
 * reads itself again every few seconds while a command on it is queued or delivered. With
 * commands.send: Send command, Cancel while queued, and Download for a diagnostics file.
 */
export function CommandsCard({ device }: { device: Device }) {
  const maySend = useCan('commands.send');
  const list = useListState();
  const commands = useDeviceCommands({ deviceId: device._id, page: list.page, limit: list.limit });
  const cancel = useCancelCommand();
  const [sending, setSending] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);

  const cancelCommand = (command: Command) =>
    cancel.mutate(command._id, {
      onSuccess: (response) => notify.success(response.msg || commandMessages.cancelled),
      // A command delivered meanwhile: the API's 409 says so.
      onError: (error) => notifyError(error),
    });
  const download = async (command: Command) => {
    setDownloading(command._id);
    try {
      await downloadDiagnostics(command._id);
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(null);
    }
  };

  const actions = (c: Command) => (
    <>
      {c.state === 'queued' ? (
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          aria-label={`Cancel ${rowName(c)}`}
          disabled={cancel.isPending && cancel.variables === c._id}
          onClick={() => cancelCommand(c)}
        >
          Cancel
        </button>
      ) : null}
      {c.diagnostics ? (
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1 text-nowrap"
          aria-label={`Download diagnostics of ${rowName(c)} (${formatBytes(c.diagnostics.size)})`}
          title={`Uploaded ${formatDateTime(c.diagnostics.uploadedAt)}, ${formatBytes(c.diagnostics.size)}`}
          disabled={downloading === c._id}
          onClick={() => void download(c)}
        >
          <DownloadIcon size={16} />
          Download
        </button>
      ) : null}
    </>
  );

  return (
    <SectionCard
      title="Commands"
      actions={
        maySend ? (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={() => setSending(true)}
            onPointerEnter={() => void loadSendModal()}
            onFocus={() => void loadSendModal()}
          >
            Send command
          </button>
        ) : null
      }
    >
      {commands.isError ? (
        <LoadError
          error={commands.error}
          fallback="The commands could not be loaded."
          onRetry={() => void commands.refetch()}
        />
      ) : (
        <TableWithPager
          label="Command history"
          columns={columns}
          rows={commands.data?.commands}
          getRowKey={(c) => c._id}
          emptyText={commandMessages.noneSent}
          isLoading={commands.isPending}
          showSrNo={false}
          actions={maySend ? actions : undefined}
          list={list}
          totalPages={commands.data?.totalPages}
          total={commands.data?.total}
          noun={['command', 'commands']}
          pageSizeOptions={DETAIL_PAGE_SIZES}
          pagerLabel="Command history pages"
        />
      )}
      {maySend ? (
        <MountWhenShown show={sending}>
          <SendCommandModal
            deviceId={device._id}
            machineNumber={device.machineNumber}
            show={sending}
            onClose={() => setSending(false)}
          />
        </MountWhenShown>
      ) : null}
    </SectionCard>
  );
}
