// The load generator, run as its own process so its CPU is not the server's event loop: autocannon
// with a mix of list, detail and write calls under one admin token. Reads its settings as JSON from
// argv[2]; prints autocannon's summary as one JSON line on stdout.
//   { url, token, deviceIds: string[], credentials: string[], seconds, connections }
import autocannon from 'autocannon';

const { url, token, deviceIds, credentials, seconds, connections } = JSON.parse(process.argv[2]);
const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
let n = 0;
const pick = () => deviceIds[Math.floor(Math.random() * deviceIds.length)];
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const asMachine = (r) => ({
  ...r,
  headers: {
    ...r.headers,
    authorization: `Device ${credentials[Math.floor(Math.random() * credentials.length)]}`,
  },
});

// Each connection walks this list in turn: four reads to two writes, as an admin console does, and
// a machine's heartbeat and batch of 20 access logs (new ids each time) through the device API.
const requests = [
  {
    method: 'POST',
    path: '/api/v1/app/heartbeat',
    setupRequest: (r) => asMachine({ ...r, body: JSON.stringify({ versionCode: 7, versionName: '1.7.0' }) }),
  },
  {
    method: 'POST',
    path: '/api/v1/app/access-logs',
    setupRequest: (r) => {
      const time = new Date().toISOString();
      const items = Array.from({ length: 20 }, () => ({
        id: crypto.randomUUID(),
        resource: 'GET /home',
        time,
      }));
      return asMachine({ ...r, body: JSON.stringify({ items }) });
    },
  },
  {
    method: 'GET',
    setupRequest: (r) => ({
      ...r,
      path: `/api/v1/admin/machine?page=${1 + Math.floor(Math.random() * 50)}&limit=10`,
    }),
  },
  { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/admin/machine/${pick()}` }) },
  { method: 'GET', path: '/api/v1/admin/users/all?page=1&limit=10' },
  {
    method: 'POST',
    path: '/api/v1/admin/machine/add',
    setupRequest: (r) => {
      n += 1;
      const body = {
        machineNumber: `LOAD-${run}-${n}`,
        serialNumber: `LSN-${run}-${n}`,
        location: `Load ward ${n % 97}`,
        latitude: (n % 170) - 85,
        longitude: (n % 340) - 170,
        city: 'Hamburg',
        country: 'Germany',
        address: `Load street ${n}`,
      };
      return { ...r, body: JSON.stringify(body) };
    },
  },
  { method: 'GET', path: '/api/v1/admin/subscrption/all?page=1&limit=10' },
  {
    method: 'PUT',
    setupRequest: (r) => ({
      ...r,
      path: `/api/v1/admin/machine/${pick()}`,
      body: JSON.stringify({ status: 1 + (n++ % 2) }),
    }),
  },
];

// 30 s: on a shared 2-core machine a slow answer is reported in the latency figures; only a lost one fails.
const result = await autocannon({ url, connections, duration: seconds, headers, requests, timeout: 30 });
process.stdout.write(`${JSON.stringify(result)}\n`);
