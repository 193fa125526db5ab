import type { Device } from '@app/contract/devices';
import { Link } from '#web/components/link.tsx';
import { NA } from '#web/lib/format.ts';
import { paths } from '#web/lib/paths.ts';

/** Device Management's Customer cell (issue 39): the holder's name, opening its page; N/A at the supplier. */
export function CustomerCell({ device }: { device: Device }) {
  if (!device.customerId) return <>{NA}</>;
  return <Link to={paths.viewCustomer.href({ id: device.customerId })}>{device.customerName ?? NA}</Link>;
}
