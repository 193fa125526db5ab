import { alarmHistory, alarmRuleLabels, type Alarm } from '@app/contract/alarms';
import { Modal } from '#web/components/modal.tsx';
import { formatDateTime } from '#web/lib/format.ts';

/** What happened to one alarm, oldest first: opened, acknowledged, resolved by whom or by itself. */
export function AlarmHistoryModal({ alarm, onClose }: { alarm: Alarm | null; onClose: () => void }) {
  const events = alarm ? alarmHistory(alarm, (iso) => formatDateTime(iso)) : [];
  return (
    <Modal
      show={alarm !== null}
      onClose={onClose}
      title={alarm ? `History of "${alarmRuleLabels[alarm.rule]}" on ${alarm.machineNumber}` : ''}
    >
      <ol className="list-unstyled mb-0">
        {events.map((event) => (
          <li key={`${event.at}-${event.text}`} className="mb-2">
            <time dateTime={event.at} className="d-block small text-body-secondary">
              {formatDateTime(event.at)}
            </time>
            {event.text}
          </li>
        ))}
      </ol>
    </Modal>
  );
}
