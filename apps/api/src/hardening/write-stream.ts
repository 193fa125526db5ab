import { randomBytes } from 'node:crypto';
import { apiPaths } from '@app/contract/paths';
import { call } from './api-process.ts';

/*
 * A stream of concurrent creates (devices, users, subscription links) against the real server,
 * keeping every write the server acknowledged (2xx) with its id and the body it was sent. The kill
 * suite cuts the server off mid-stream and then checks each acknowledged write field by field.
 */

export type WriteKind = 'device' | 'user' | 'subscription';
export type AckedWrite = { kind: WriteKind; id: string; body: Record<string, unknown> };

export type StreamTally = {
  acked: AckedWrite[];
  /** Requests that got no answer (the connection died with the server): not acknowledged. */
  unanswered: number;
  /** Answers that were neither 2xx nor a lost connection: each is a failure of the run. */
  unexpected: string[];
};

const kinds: WriteKind[] = ['device', 'user', 'subscription'];

/** Bodies unique per run and per call, so every acknowledged write can be found by its own values. */
export function bodyFor(
  kind: WriteKind,
  tag: string,
  n: number,
  adminRoleId: string,
): Record<string, unknown> {
  const u = `${tag}-${n}`;
  if (kind === 'device') {
    return {
      machineNumber: `M-${u}`,
      serialNumber: `SN-${u}`,
      location: `Ward ${n}`,
      latitude: ((n * 7) % 180) - 89.5,
      longitude: ((n * 13) % 360) - 179.5,
      city: 'Berlin',
      country: 'Germany',
      address: `Street ${n}`,
    };
  }
  if (kind === 'user') {
    return {
      firstName: 'Kill',
      lastName: `Test ${n}`,
      userName: `k${u}`.replace(/-/g, '').slice(0, 30),
      email: `k-${u}@example.test`,
      phone: String(1_000_000_000 + n).slice(0, 10),
      roleId: adminRoleId,
      password: `Pw-${u}`,
    };
  }
  return {
    fullName: `Customer ${n}`,
    email: `c-${u}@example.test`,
    // A subscription names a machine of the fleet (decision 068): the one the stream adds first.
    machineSerialNumber: subscribedSerial(tag),
    amount: 10 + (n % 90) + 0.5,
    isRecurring: false,
  };
}

const subscribedSerial = (tag: string) => `SN-${tag}-subscribed`;

const createPath: Record<WriteKind, string> = {
  device: apiPaths.machineAdd,
  user: apiPaths.users,
  subscription: apiPaths.subscriptionAdd,
};

/**
 * Runs `workers` loops of creates until `stop()` is called; each loop takes the next kind in turn.
 * A request the server never answered is counted, not thrown: that is what a kill looks like.
 */
export function startWriteStream(opts: {
  url: string;
  token: string;
  adminRoleId: string;
  workers: number;
  tally: StreamTally;
}) {
  const tag = randomBytes(3).toString('hex');
  let stopped = false;
  let n = 0;
  // The machine every subscription of the stream names, added before the stream starts.
  const machine = call(opts.url, opts.token, 'POST', apiPaths.machineAdd, {
    // An index the stream's own writes never reach (a negative one put its coordinates out of range).
    ...bodyFor('device', tag, 999_999, opts.adminRoleId),
    serialNumber: subscribedSerial(tag),
  }).then((res) => {
    if (res.status !== 201) throw new Error(`the stream's machine: ${res.status} ${res.text.slice(0, 200)}`);
  });
  const loops = Array.from({ length: opts.workers }, async () => {
    await machine;
    while (!stopped) {
      const i = n++;
      const kind = kinds[i % kinds.length]!;
      const body = bodyFor(kind, tag, i, opts.adminRoleId);
      try {
        const res = await call(opts.url, opts.token, 'POST', createPath[kind], body, 20_000);
        const id = (res.json?.data as { _id?: string } | undefined)?._id;
        if (res.status >= 200 && res.status < 300 && id) opts.tally.acked.push({ kind, id, body });
        else opts.tally.unexpected.push(`${kind} ${res.status} ${res.text.slice(0, 200)}`);
      } catch {
        opts.tally.unanswered++;
        // The server is gone; do not spin on refused connections until stop() comes.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const detailPath: Record<WriteKind, (id: string) => string> = {
  device: apiPaths.machine,
  user: apiPaths.user,
  subscription: apiPaths.subscriptionDetail,
};

/** The fields of the answer that must equal what was sent (the password is checked by signing in). */
function expectedFields(w: AckedWrite): Record<string, unknown> {
  const { password: _password, ...rest } = w.body;
  if (w.kind === 'user') return { ...rest, email: String(rest.email).toLowerCase() };
  return rest;
}

/** Reads one acknowledged write back through the API; returns what is wrong with it, or null. */
export async function checkAcked(url: string, token: string, w: AckedWrite): Promise<string | null> {
  const res = await call(url, token, 'GET', detailPath[w.kind](w.id));
  if (res.status !== 200) return `${w.kind} ${w.id}: GET answered ${res.status}`;
  const data = res.json?.data as Record<string, unknown>;
  const wrong = Object.entries(expectedFields(w)).filter(([k, v]) => data[k] !== v);
  if (wrong.length)
    return `${w.kind} ${w.id}: ${wrong.map(([k, v]) => `${k} is ${JSON.stringify(data[k])}, sent ${JSON.stringify(v)}`).join('; ')}`;
  if (w.kind === 'device' && data.status !== 2) return `device ${w.id}: status ${String(data.status)}`;
  if (w.kind === 'user' && (data.role as { _id?: string } | null)?._id !== w.body.roleId)
    return `user ${w.id}: role missing`;
  if (w.kind === 'subscription' && data.status !== 1)
    return `subscription ${w.id}: status ${String(data.status)}`;
  return null;
}
