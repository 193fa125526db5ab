import { createHash, randomBytes } from 'node:crypto';
import { Agent, createServer, type AgentOptions, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { verifySignature } from './sigv4-verifier.ts';

/**
 * A local stand-in for an S3-compatible store, for the storage tests. It takes both addressings:
 * path-style (`<endpoint>/<bucket>/<key>`, MinIO and most self-hosted stores) and virtual-hosted
 * (`<bucket>.<endpoint host>/<key>`, AWS's default), telling them apart by the Host header.
 * It implements PutObject, CreateMultipartUpload / UploadPart / CompleteMultipartUpload /
 * AbortMultipartUpload, GetObject, HeadObject and DeleteObject, keeps objects in memory, and
 * VERIFIES every request's AWS Signature Version 4 (and the signed payload hash against the body),
 * so a wrong secret, a tampered body or a stale date fails exactly as it would on a real store.
 * It enforces S3's 5 MiB minimum for every part but the last, so the client's part sizes are tested too.
 */

/** `signedBody`: the body's SHA-256 was part of the signature (not UNSIGNED-PAYLOAD). */
export type StandInRequest = {
  method: string;
  host: string;
  style: 'path' | 'virtual-hosted';
  path: string;
  query: string;
  operation: string;
  bytes: number;
  signedBody: boolean;
};

/** The host name virtual-hosted requests go to, under the bucket's own label; it resolves nowhere, see `loopbackAgent`. */
const virtualHostedName = 's3.stand-in.test';

const MIN_PART = 5 * 1024 * 1024;

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const md5Etag = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;

export async function startS3StandIn(
  options: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {},
) {
  const keys = {
    accessKeyId: options.accessKeyId ?? `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: options.secretAccessKey ?? randomBytes(30).toString('base64'),
    region: options.region ?? 'eu-central-1',
  };
  const bucket = options.bucket ?? 'test-bucket';
  const objects = new Map<string, { body: Buffer; contentType: string; etag: string }>();
  const uploads = new Map<
    string,
    { key: string; contentType: string; parts: Map<number, { body: Buffer; etag: string }> }
  >();
  const requests: StandInRequest[] = [];
  const failures: string[] = [];

  const send = (res: ServerResponse, status: number, body = '', headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body ? { 'content-type': 'application/xml' } : {}), ...headers });
    res.end(body);
  };
  const error = (res: ServerResponse, status: number, code: string, message: string, head = false) => {
    failures.push(code);
    send(res, status, head ? '' : xml(`<Error><Code>${code}</Code><Message>${message}</Message></Error>`));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    const params = new URLSearchParams(query);
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';

    const verdict = verifySignature(req, path, query, body, keys, Date.now());
    // Virtual-hosted: the bucket is the host's first label and the whole path is the key.
    const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
    const style = host.endsWith(`.${virtualHostedName}`) ? 'virtual-hosted' : 'path';
    const match = style === 'virtual-hosted' ? /^\/(.+)$/.exec(path) : /^\/([^/]+)\/(.+)$/.exec(path);
    const addressedBucket =
      style === 'virtual-hosted'
        ? host.slice(0, -virtualHostedName.length - 1)
        : match
          ? decodeURIComponent(match[1]!)
          : '';
    // In both shapes the key is the last group.
    const key = match ? decodeURIComponent(match.at(-1)!) : '';
    const operation =
      method === 'PUT' && params.has('uploadId')
        ? 'UploadPart'
        : method === 'PUT'
          ? 'PutObject'
          : method === 'POST' && params.has('uploads')
            ? 'CreateMultipartUpload'
            : method === 'POST' && params.has('uploadId')
              ? 'CompleteMultipartUpload'
              : method === 'DELETE' && params.has('uploadId')
                ? 'AbortMultipartUpload'
                : method === 'DELETE'
                  ? 'DeleteObject'
                  : head
                    ? 'HeadObject'
                    : method === 'GET'
                      ? 'GetObject'
                      : 'Unknown';
    requests.push({
      method,
      host,
      style,
      path,
      query,
      operation,
      bytes: body.length,
      signedBody: /^[0-9a-f]{64}$/.test(String(req.headers['x-amz-content-sha256'])),
    });
    if (!verdict.ok) return error(res, verdict.status, verdict.code, verdict.message, head);
    if (!match || addressedBucket !== bucket)
      return error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', head);

    switch (operation) {
      case 'PutObject': {
        const etag = md5Etag(body);
        objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
          etag,
        });
        return send(res, 200, '', { etag });
      }
      case 'CreateMultipartUpload': {
        const uploadId = randomBytes(16).toString('hex');
        uploads.set(uploadId, {
          key,
          contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
          parts: new Map(),
        });
        return send(
          res,
          200,
          xml(
            `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
          ),
        );
      }
      case 'UploadPart': {
        const upload = uploads.get(params.get('uploadId')!);
        const n = Number(params.get('partNumber'));
        if (!upload || upload.key !== key)
          return error(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
        if (!Number.isInteger(n) || n < 1 || n > 10_000)
          return error(res, 400, 'InvalidArgument', 'partNumber must be 1..10000');
        const etag = md5Etag(body);
        upload.parts.set(n, { body, etag });
        return send(res, 200, '', { etag });
      }
      case 'CompleteMultipartUpload': {
        const uploadId = params.get('uploadId')!;
        const upload = uploads.get(uploadId);
        if (!upload || upload.key !== key)
          return error(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
        const listed = [
          ...body
            .toString('utf8')
            .matchAll(
              /<Part>\s*(?:<ETag>([^<]*)<\/ETag>\s*<PartNumber>(\d+)<\/PartNumber>|<PartNumber>(\d+)<\/PartNumber>\s*<ETag>([^<]*)<\/ETag>)/g,
            ),
        ].map((p) => ({
          n: Number(p[2] ?? p[3]),
          etag: (p[1] ?? p[4])!.replace(/&quot;/g, '"'),
        }));
        if (listed.length === 0) return error(res, 400, 'MalformedXML', 'no parts listed');
        const chosen: Buffer[] = [];
        for (const [i, p] of listed.entries()) {
          const part = upload.parts.get(p.n);
          if (!part || part.etag !== p.etag)
            return error(res, 400, 'InvalidPart', `part ${p.n} missing or its ETag differs`);
          if (i > 0 && p.n <= listed[i - 1]!.n)
            return error(res, 400, 'InvalidPartOrder', 'parts must be in ascending order');
          if (i < listed.length - 1 && part.body.length < MIN_PART)
            return error(res, 400, 'EntityTooSmall', `part ${p.n} is under 5 MiB`);
          chosen.push(part.body);
        }
        const whole = Buffer.concat(chosen);
        const etag = `"${createHash('md5')
          .update(Buffer.concat(listed.map((p) => Buffer.from(p.etag.replace(/"/g, ''), 'hex'))))
          .digest('hex')}-${listed.length}"`;
        objects.set(key, { body: whole, contentType: upload.contentType, etag });
        uploads.delete(uploadId);
        return send(
          res,
          200,
          xml(
            `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag.replace(/"/g, '&quot;')}</ETag></CompleteMultipartUploadResult>`,
          ),
        );
      }
      case 'AbortMultipartUpload':
        if (!uploads.delete(params.get('uploadId')!))
          return error(res, 404, 'NoSuchUpload', 'The specified upload does not exist');
        return send(res, 204);
      case 'DeleteObject':
        objects.delete(key);
        return send(res, 204);
      case 'HeadObject':
      case 'GetObject': {
        const object = objects.get(key);
        if (!object) return error(res, 404, 'NoSuchKey', 'The specified key does not exist.', head);
        res.writeHead(200, {
          'content-type': object.contentType,
          'content-length': String(object.body.length),
          etag: object.etag,
          'last-modified': new Date().toUTCString(),
        });
        return res.end(head ? undefined : object.body);
      }
      default:
        return error(res, 501, 'NotImplemented', `${method} is not implemented by the stand-in`);
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** For virtual-hosted addressing: requests go to `<bucket>.s3.stand-in.test`, through `loopbackAgent`. */
    virtualHostedEndpoint: `http://${virtualHostedName}:${port}`,
    bucket,
    ...keys,
    /** Every request received, in order (operation name, size of its body). */
    requests,
    /** The S3 error codes answered (signature mismatches included). */
    failures,
    objects,
    /** Multipart uploads begun and neither completed nor aborted. */
    openUploads: () => uploads.size,
    /** The environment that points the API at this stand-in. */
    env: (): Record<string, string> => ({
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: keys.region,
      S3_ACCESS_KEY_ID: keys.accessKeyId,
      S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type S3StandIn = Awaited<ReturnType<typeof startS3StandIn>>;

/**
 * An HTTP agent that connects every host name to 127.0.0.1: `<bucket>.s3.stand-in.test` cannot
 * resolve on a machine without a network DNS, and this stands in for the DNS only.
 */
export function loopbackAgent() {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
      ]);
    else callback(null, '127.0.0.1', 4);
  };
  return new Agent({ keepAlive: false, lookup } as AgentOptions);
}
