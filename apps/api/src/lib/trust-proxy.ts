import type { Config } from '../config.ts';

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
