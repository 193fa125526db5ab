import type { Envelope } from '@app/contract/envelope';

export const ok = <T>(data: T, msg = 'Success', code = 200): Envelope<T> => ({ code, msg, data });
