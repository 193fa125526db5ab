import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * nginx from Debian's package as the load balancer in front of API instances (the multi-instance
 * suite), configured as docs/deployment.md §3's site: round robin over the instances, keep-alive to
 * them shorter than the API's, X-Forwarded-For appended, the request body streamed on. It runs in
 * the foreground on a configuration, pid, logs and temporary files of its own in a temporary
 * directory, so it needs no root and touches nothing of an installed nginx.
 */

export const nginxBin = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export const nginxAvailable = (): boolean => existsSync(nginxBin);

export type NginxBalancer = {
  url: string;
  /** Stops nginx and removes its directory. */
  stop: () => Promise<void>;
};

/** The configuration: `upstreams` are host:port of the instances. */
function nginxConfig(dir: string, port: number, upstreams: readonly string[]): string {
  const temp = (name: string) => path.join(dir, name);
  return `daemon off;
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${temp('client-body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  upstream device_admin {
${upstreams.map((u) => `    server ${u};`).join('\n')}
    keepalive 32;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 210m;
    location / {
      proxy_pass http://device_admin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_request_buffering off;
      proxy_read_timeout 3600s;
      # The suite's own: which instance answered (not in the deployment guide's site).
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts nginx on `port` in front of `upstreams`; resolves once it answers /api/health with 200. */
export async function startNginx(port: number, upstreams: readonly string[]): Promise<NginxBalancer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'multi-instance-nginx-'));
  // As root, nginx's worker runs as an unprivileged user: it must reach its temporary directories.
  chmodSync(dir, 0o755);
  for (const name of ['client-body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(path.join(dir, name));
    chmodSync(path.join(dir, name), 0o777);
  }
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstreams));
  // -e: the log of start-up messages too, before the configuration's error_log is read.
  const child = spawn(nginxBin, ['-p', `${dir}/`, '-c', conf, '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let dead = false;
  void exited.then(() => (dead = true));
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (!dead) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && !dead) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return { url, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const log = `${out}\n${errorLog()}`;
  await stop();
  throw new Error(`nginx did not answer on ${url}:\n${log.slice(-4000)}`);
}
