/**
 * Query keys whose values are never personal: paging, sorting and fixed filters. Every other key
 * keeps its name but loses its value, because a search term is health data (a treatment search by
 * a patient's name), an email is personal, and a code or token is a secret (issue 18, decision 026).
 */
const loggableParams = new Set([
  'page',
  'limit',
  'sort',
  'sortBy',
  'sortField',
  'order',
  'direction',
  'status',
  'type',
  'kind',
  'tab',
  'view',
  'from',
  'to',
  'startDate',
  'endDate',
  'timeZone',
  'format',
]);

/**
 * The request URL as the server log shows it: the path as is, and of the query only the values of
 * allowed keys; any other key's value is replaced by [redacted] (docs/decisions/015, 026).
 */
export function loggableUrl(raw: string): string {
  // A path that is itself a key: the clinic's acknowledgement link of a field safety notice, whose
  // token the database keeps only hashed (decision 084), is not kept whole in the log either.
  const url = raw.replace(/^(\/api\/v1\/safety-notice-ack\/)[^/?]+/, '$1[redacted]');
  const q = url.indexOf('?');
  if (q < 0) return url.slice(0, 2000);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair.length <= 40 && loggableParams.has(pair) ? pair : '[redacted]';
      const name = pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A broken escape: not an allowed key either.
      }
      return loggableParams.has(decoded) ? pair : `${name.slice(0, 40)}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`.slice(0, 2000);
}

/** pino serializer for Fastify's request: Fastify's fields, with the URL made safe. */
export function requestLogSerializer(request: {
  method: string;
  url: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host ?? request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
