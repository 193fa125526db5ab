import { logInWords } from '@app/contract/log-words';
import type { AccessLog, RecordKind } from '@app/contract/logs';
import { orNA } from '../lib/format.ts';
import { paths } from '../lib/paths.ts';
import { Link } from './link.tsx';

const pageOf: Partial<Record<RecordKind, (id: string) => string>> = {
  device: (id) => paths.deviceDetails.href({ id }),
  patient: (id) => paths.viewPatient.href({ id }),
  doctor: (id) => paths.viewDoctor.href({ id }),
  technician: (id) => paths.viewTechnician.href({ id }),
  user: (id) => paths.viewUser.href({ id }),
  role: (id) => paths.viewRole.href({ id }),
};

/** An access-log row in words, linking to the record it was about when that has a page. */
export function LogWords({ log }: { log: AccessLog }) {
  const words = logInWords(log);
  if (!words) return <>{orNA(null)}</>;
  const href = words.record ? pageOf[words.record.kind]?.(words.record.id) : undefined;
  return href ? <Link to={href}>{words.text}</Link> : <>{words.text}</>;
}
