import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Permission } from '@app/contract/permissions';
import { apiPaths } from '@app/contract/paths';
import { AdminClient } from '@app/fleet-simulator/admin-client';
import { seededRandom } from '@app/fleet-simulator/fake-data';
import { ApiError, type RetryPolicy } from '@app/fleet-simulator/http';
import { hardeningAdmin, stepUp } from './api-process.ts';
import { request, type Answer } from './cluster.ts';
import {
  nextBatches as roundOfBatches,
  sendBatch,
  syncingMachine,
  type Batch,
  type SyncingMachine,
} from './syncing-machine.ts';

export { sendBatch, type Batch };

/*
 * What the multi-instance suite does as the console and as a machine: console users of a role of
 * their own, an enrolled machine with a signed-in doctor, and batches streamed through the balancer
 * with the app's retry rule (tools/fleet-simulator is the reference client).
 */

const random = seededRandom(36);

/** Signs in through `url` (the balancer or one instance); the bearer token. */
export async function signIn(url: string, email: string, password: string) {
  const res = await request(`${url}${apiPaths.login}`, { method: 'POST', body: { email, password } });
  const token = (res.body?.data as { accessToken?: string } | undefined)?.accessToken;
  if (res.status !== 200 || !token)
    throw new Error(`sign-in of ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}

/** A console user of a new admin role with exactly `permissions`, made by the first admin through `url`. */
export async function consoleUser(url: string, adminToken: string, permissions: Permission[]) {
  const tag = randomBytes(4).toString('hex');
  await stepUp(url, adminToken);
  const role = await request(`${url}${apiPaths.roles}`, {
    method: 'POST',
    token: adminToken,
    body: { roleName: `Multi ${tag}`, type: 'admin', permissions },
  });
  if (role.status !== 201) throw new Error(`role: ${role.status} ${JSON.stringify(role.body)}`);
  const roleId = (role.body!.data as { _id: string })._id;
  const email = `multi-${tag}@example.com`;
  const password = `Multi-${tag}-Passw0rd`;
  const user = await request(`${url}${apiPaths.users}`, {
    method: 'POST',
    token: adminToken,
    body: {
      firstName: 'Multi',
      lastName: 'Instance',
      userName: `multi_${tag}`,
      email,
      phone: '0123456789',
      roleId,
      password,
    },
  });
  if (user.status !== 201) throw new Error(`user: ${user.status} ${JSON.stringify(user.body)}`);
  return { roleId, userId: (user.body!.data as { _id: string })._id, email, password, tag };
}

/** The app's retry rule, with short pauses: a 5xx, a 429 or a lost connection is sent again, same ids. */
const appRetry: RetryPolicy = { attempts: 8, baseDelayMs: 100, maxDelayMs: 1_000 };

/** The first admin as the fleet simulator's console client, through `url`. */
export const adminClient = (url: string) =>
  new AdminClient({ baseUrl: url }, hardeningAdmin.email, hardeningAdmin.password);

export type Machine = SyncingMachine;

/**
 * A machine enrolled through `url`, with a technician, a signed-in doctor and three patients, all
 * through the real routes; its client calls `url` with the app's retry rule.
 */
export const enrolledMachine = (url: string): Promise<Machine> =>
  syncingMachine(url, { name: 'Multi', retry: appRetry, patients: 3, random });

/** One round of what a machine sends: access logs, error logs and treatments, each item with its id. */
export const nextBatches = (m: Machine, accessLogs = 20): Batch[] => roundOfBatches(m, random, accessLogs);

export type Tally = { acked: Set<string>; sent: Batch[]; unanswered: Batch[]; errors: string[] };

/**
 * `workers` loops sending rounds of batches until `stop.now`; each batch's accepted ids are
 * acknowledged. A batch whose retries all failed is kept for the caller to send again.
 */
export async function streamBatches(m: Machine, tally: Tally, stop: { now: boolean }, workers = 4) {
  const worker = async () => {
    while (!stop.now)
      for (const batch of nextBatches(m)) {
        tally.sent.push(batch);
        try {
          const answer = await sendBatch(m, batch);
          for (const r of answer.results) if (r.status === 'accepted') tally.acked.add(r.id!);
          if (answer.refused) tally.errors.push(`refused items: ${JSON.stringify(answer.results)}`);
        } catch (error) {
          tally.unanswered.push(batch);
          if (error instanceof ApiError && error.status < 500 && error.status !== 429)
            tally.errors.push(error.message);
        }
      }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

/**
 * An access-log batch whose body is sent in two halves: the request stays open on whichever instance
 * nginx picked until `finish()` sends the rest. Answers the balancer's answer and the instance it
 * named, or the error of a cut connection.
 */
export function halfSentBatch(url: string, credential: string, batch: Batch) {
  if (batch.kind !== 'access') throw new Error('an access-log batch only');
  const body = Buffer.from(JSON.stringify({ items: batch.items }));
  const req = http.request(`${url}${apiPaths.appAccessLogs}`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Device ${credential}`,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  });
  const answer = new Promise<Pick<Answer, 'status' | 'upstream'> | { error: string }>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, upstream: res.headers['x-upstream'] as string }),
      );
    });
    req.on('error', (error) => resolve({ error: error.message }));
  });
  req.write(body.subarray(0, body.length >> 1));
  return {
    finish: () => {
      if (!req.destroyed) req.end(body.subarray(body.length >> 1));
      return answer;
    },
  };
}
