/** Query parameters whose values are secrets (one-time codes, tokens): never written to the server log. */
const secretParam = /pass|otp|code|token|secret|key|sig/i;

/**
 * The request URL as the server log shows it: the path as is, secret-looking query values replaced,
 * so a code or token a client put in a query string does not end up in the log (docs/decisions/015).
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url.slice(0, 2000);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && secretParam.test(decodeURIComponent(name.replace(/\+/g, ' ')) || name)
        ? `${name}=[redacted]`
        : pair;
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
