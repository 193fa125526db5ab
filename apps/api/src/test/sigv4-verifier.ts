import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/*
 * AWS Signature Version 4, checked as S3 checks it (header-based only), for the S3 stand-in: a wrong
 * secret, a tampered body or a stale date fails exactly as it would on a real store.
 */

const MAX_SKEW_MS = 15 * 60 * 1000;

/** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX in capitals. */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

function canonicalQuery(raw: string): string {
  if (!raw) return '';
  return raw
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const k = decodeURIComponent((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, ' '));
      const v = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1).replace(/\+/g, ' '));
      return [encode(k), encode(v)] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

type Verdict = { ok: true } | { ok: false; status: number; code: string; message: string };

/** Checks the Authorization header of one request the way S3 does (header-based SigV4 only). */
export function verifySignature(
  req: IncomingMessage,
  path: string,
  query: string,
  body: Buffer,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
  now: number,
): Verdict {
  const deny = (code: string, message: string, status = 403): Verdict => ({
    ok: false,
    status,
    code,
    message,
  });
  const auth = req.headers.authorization ?? '';
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return deny('AccessDenied', 'missing or malformed SigV4 Authorization header');
  const [, accessKeyId, day, region, signedHeaderList, signature] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (accessKeyId !== keys.accessKeyId) return deny('InvalidAccessKeyId', 'unknown access key');
  if (region !== keys.region)
    return deny('AuthorizationHeaderMalformed', `region ${region} is wrong, expecting ${keys.region}`, 400);
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!when || amzDate.slice(0, 8) !== day)
    return deny('AccessDenied', 'x-amz-date missing or not the credential day');
  const at = Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!);
  if (Math.abs(now - at) > MAX_SKEW_MS)
    return deny('RequestTimeTooSkewed', 'request time too far from the server time');
  const signed = signedHeaderList.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!signed.includes(required)) return deny('AccessDenied', `${required} must be signed`);
  }
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash.startsWith('STREAMING-'))
    return deny('NotImplemented', 'chunked (streaming) payload signing is not supported here', 501);
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body))
    return deny('XAmzContentSHA256Mismatch', 'the body does not match x-amz-content-sha256', 400);

  const headerLines = signed.map((name) => {
    const value = req.headers[name];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
  });
  const canonical = [
    req.method,
    path,
    canonicalQuery(query),
    headerLines.join(''),
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const expected = hmac(signingKey, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    return deny('SignatureDoesNotMatch', 'the request signature does not match');
  return { ok: true };
}
