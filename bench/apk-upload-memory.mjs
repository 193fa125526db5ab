// `npm run bench:upload`: uploads a 150 MB APK to a real API server process over HTTP and samples
// that process's resident memory (VmRSS) while it streams in. Budget: RSS growth < 64 MB, which
// holds only if the upload is streamed to storage and never held whole in memory. Then downloads
// the APK and checks its SHA-256. Results are printed and written to
// bench/results/apk-upload-memory-<date>.json; the exit code is 1 when over budget or corrupted.
// BENCH_STORAGE=s3 runs the same with STORAGE=s3 against the local S3 stand-in (its own process, so
// the bucket's memory is not counted) and writes apk-upload-memory-s3-<date>.json.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256File, writeApk } from './apk-fixture.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sizeMb = Number(process.env.BENCH_APK_MB ?? 150);
const storageKind = process.env.BENCH_STORAGE === 's3' ? 's3' : 'disk';
const budgetMb = 64;
const admin = { email: 'bench@example.com', password: 'Bench-Passw0rd' };
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-apk-'));

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
};

function request(port, { method, url, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers }, (res) => {
      const chunks = [];
      const hash = createHash('sha256');
      let size = 0;
      res.on('data', (c) => {
        hash.update(c);
        size += c.length;
        if (chunks.length < 64) chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          sha256: hash.digest('hex'),
          size,
        }),
      );
    });
    req.on('error', reject);
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

/** multipart/form-data with the fields and the file streamed from disk. */
function uploadBody(fields, file, fileName) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\ncontent-disposition: form-data; name="apk"; filename="${fileName}"\r\ncontent-type: application/vnd.android.package-archive\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + statSync(file).size + Buffer.byteLength(tail);
  const body = new PassThrough();
  body.write(head);
  createReadStream(file)
    .on('end', () => body.end(tail))
    .pipe(body, { end: false });
  return {
    body,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(length),
    },
  };
}

/** The S3 stand-in in a child process; resolves with the API environment it prints. */
function startStandIn() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/api/src/test/s3-stand-in-cli.ts')],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve({ process: child, env: JSON.parse(out.split('\n')[0]) });
    });
    child.once('exit', (code) => reject(new Error(`S3 stand-in exited (${code})`)));
  });
}

/** What the bench's two APKs declare in their manifests; the upload's form says the same. */
const release = (versionCode) => ({
  packageName: 'com.bench.app',
  versionCode,
  versionName: `1.0.${versionCode}`,
});

async function main() {
  const apkFile = path.join(work, 'bench.apk');
  const smallFile = path.join(work, 'small.apk');
  console.log(`writing a ${sizeMb} MB APK...`);
  writeApk(apkFile, sizeMb * 1024 * 1024, release(2));
  writeApk(smallFile, 64 * 1024, release(1));
  const expected = await sha256File(apkFile);

  const standIn = storageKind === 's3' ? await startStandIn() : null;
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/server.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: '',
      DEMO_DATA: '0',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(work, 'no-web'),
      ...standIn?.env,
    },
  });
  try {
    for (let i = 0; ; i++) {
      const ok = await request(port, { method: 'GET', url: '/api/health' }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const login = await request(port, {
      method: 'POST',
      url: '/api/v1/admin/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const token = JSON.parse(login.text).data.accessToken;
    const auth = { authorization: `Bearer ${token}` };
    // A release for every machine (no first stage named) needs a step-up (decision 046).
    const stepUp = await request(port, {
      method: 'POST',
      url: '/api/v1/admin/profile/step-up',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ password: admin.password }),
    });
    if (stepUp.status !== 200) throw new Error(`step-up failed: ${stepUp.status} ${stepUp.text}`);
    const fields = (versionCode) => ({
      appName: 'com.bench.app',
      versionCode,
      versionName: release(versionCode).versionName,
      remark: 'bench',
      updateDesc: 'memory bench',
      updateType: '1',
    });

    // Warm-up: the first upload loads the code paths; the baseline is taken after it.
    const warm = uploadBody(fields(1), smallFile, 'small.apk');
    const warmRes = await request(port, {
      method: 'POST',
      url: '/api/v1/admin/system/updates',
      headers: { ...auth, ...warm.headers },
      body: warm.body,
    });
    if (warmRes.status !== 201) throw new Error(`warm-up upload failed: ${warmRes.status} ${warmRes.text}`);
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssMb(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 20);

    const started = Date.now();
    const big = uploadBody(fields(2), apkFile, 'bench.apk');
    const res = await request(port, {
      method: 'POST',
      url: '/api/v1/admin/system/updates',
      headers: { ...auth, ...big.headers },
      body: big.body,
    });
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(server.pid));
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
    const created = JSON.parse(res.text).data;

    const download = await request(port, { method: 'GET', url: new URL(created.apkUrl).pathname });
    const growth = peak - baseline;
    const result = {
      date: new Date().toISOString(),
      storage: storageKind,
      apkMb: sizeMb,
      uploadSeconds: Number(seconds.toFixed(2)),
      throughputMbPerS: Number((sizeMb / seconds).toFixed(1)),
      rssBaselineMb: Number(baseline.toFixed(1)),
      rssPeakMb: Number(peak.toFixed(1)),
      rssGrowthMb: Number(growth.toFixed(1)),
      budgetMb,
      storedSha256Matches: created.apkSha256 === expected,
      downloadSha256Matches: download.sha256 === expected && download.size === statSync(apkFile).size,
      downloadContentType: download.headers['content-type'],
    };
    result.pass = result.rssGrowthMb < budgetMb && result.storedSha256Matches && result.downloadSha256Matches;
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      path.join(
        root,
        `bench/results/apk-upload-memory-${storageKind === 's3' ? 's3-' : ''}${result.date.slice(0, 10)}.json`,
      ),
      JSON.stringify(result, null, 2) + '\n',
    );
    process.exitCode = result.pass ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    standIn?.process.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
