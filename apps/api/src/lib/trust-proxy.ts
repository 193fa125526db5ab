import type { Config } from '../config.ts';
import { isIP } from 'node:net';

/**
 * TRUST_PROXY: whose X-Forwarded-For to believe. A number is how many proxies stand in front of the
 * API (1: the address the one proxy saw), a list names the proxies (addresses, CIDRs, or
 * proxy-addr's loopback / linklocal / uniquelocal). Never "trust every hop": then any client would
 * choose the address the throttles and the audit trail see (issue 18). null: not a valid setting.
 */
export function trustProxySetting(value: string | undefined): false | number | string[] | null {
  const v = value?.trim();
  if (!v || v === '0' || v === 'false') return false;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const entries = v.split(',').map((s) => s.trim());
  const valid = entries.every((entry) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || extra !== undefined) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  return valid ? entries : null;
}

/**
 * Fastify's trustProxy from TRUST_PROXY. A list of proxies goes as it is. A hop count becomes a
 * function trusting the first `n` hops (the socket's peer, then X-Forwarded-For from the right):
 * Fastify 5.12 no longer accepts a number (it treats it as "trust none", since a count cannot tell
 * the proxy from a client that reached the API directly). So a count is only right when clients
 * cannot reach the API except through its proxies; README says so, and a list is the safer choice.
 */
export function trustProxyOption(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
}
