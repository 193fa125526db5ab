import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/* The parts of `npm run bench:ingest` around the measuring: its baseline server and its reports. */

/** The baseline: a bare node:http server that reads each request and answers a fixed envelope. */
export async function startBareServer(port: number) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(200,{'content-type':'application/json'});` +
        `s.end('{"code":200,"msg":"ok","data":{"serverTime":"2025-01-01T00:00:00.000Z","nextHeartbeatSeconds":300}}')})}).listen(${port},'127.0.0.1')`,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { child, url: `http://127.0.0.1:${port}` };
}

export function writeResults(
  dir: string,
  about: string,
  result: {
    date: string;
    medians: Record<string, number>;
    checks: { target: string; value: number; met: boolean }[];
  } & Record<string, unknown>,
) {
  mkdirSync(dir, { recursive: true });
  const day = result.date.slice(0, 10);
  writeFileSync(path.join(dir, `ingest-${day}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const m = result.medians;
  const md = [
    `# Device API ingest (${day})`,
    '',
    about,
    '',
    '| target | median | |',
    '|---|---:|---|',
    ...result.checks.map((c) => `| ${c.target} | ${c.value} | ${c.met ? 'met' : 'not met'} |`),
    '',
    '| measure | per second | p50 ms | p95 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...[
      ['heartbeat, 32 in flight', 'heartbeats'],
      ['heartbeat at 1,000/s', 'heartbeatsAt1000'],
      ['100-item log batch (items/s)', 'logItems'],
      ['100-item treatment batch (records/s)', 'treatments'],
      ['bare HTTP server, same heartbeat (baseline)', 'bareHeartbeats'],
    ].map(
      ([label, k]) =>
        `| ${label} | ${m[`${k}PerSecond`]} | ${m[`${k}P50Ms`]} | ${m[`${k}P95Ms`]} | ${m[`${k}P99Ms`]} |`,
    ),
    '',
  ].join('\n');
  writeFileSync(path.join(dir, `ingest-${day}.md`), md);
}
