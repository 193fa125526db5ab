// What the stack can do for the same work, written plainly: Fastify + node-postgres with named
// (prepared) statements and no framework of ours. Each route runs the queries the real API's route
// runs for the same request: the token checked and its session joined to its user and role, then
// the route's own reads and writes, and the audit row (batched for reads, before the answer for
// writes, as the real API does). Started by bench/api.mjs as its own process: PORT, DATABASE_URL,
// JWT_SECRET. MINIMAL_SESSION_QUERY=0 checks the token alone, without the session query: the
// ceiling for an API that holds sessions in memory (issue 36, decision 074).
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const key = new TextEncoder().encode(process.env.JWT_SECRET);
const app = Fastify({ logger: false });
const q = (name, text, values) => pool.query({ name, text, values });

const deviceColumns = `id, machine_number, serial_number, location, latitude, longitude, city, country, address,
  status, subscription_status, created_at, updated_at, last_seen_at, app_version_code, app_version_name,
  app_package, licence_state, licence_paid_through, licence_grace_until`;
const toDevice = (r, subs) => ({
  _id: r.id,
  machineNumber: r.machine_number,
  serialNumber: r.serial_number,
  location: r.location,
  latitude: r.latitude,
  longitude: r.longitude,
  city: r.city,
  country: r.country,
  address: r.address,
  status: r.status,
  subscriptionStatus: r.subscription_status,
  subscriptionDetails: subs.filter((s) => s.serial === r.serial_number.toLowerCase()),
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  lastSeenAt: r.last_seen_at?.toISOString() ?? null,
  appVersionCode: r.app_version_code,
  appVersionName: r.app_version_name,
  appPackage: r.app_package,
  licenceState: r.licence_state,
  licencePaidThrough: r.licence_paid_through?.toISOString() ?? null,
  licenceGraceUntil: r.licence_grace_until?.toISOString() ?? null,
});
const subscriptionsOf = async (serials) =>
  serials.length === 0
    ? []
    : (
        await q(
          'subs',
          `select id, lower(machine_serial_number) as serial, status, created_at, expired_at, is_recurring, plan_type, amount_cents,
             paid_through
           from subscriptions where lower(machine_serial_number) = any($1) order by created_at desc, id desc`,
          [serials.map((s) => s.toLowerCase())],
        )
      ).rows;

// Access-log rows of reads go in one insert every 250 ms, as the real API batches them.
let pending = [];
const logRow = (auth, resource, status) => [auth.userId, auth.email, resource, '127.0.0.1', status];
const insertRows = (rows) =>
  pool.query(
    `insert into access_logs (user_id, user_email, resource, location, status_code)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::smallint[])`,
    [0, 1, 2, 3, 4].map((i) => rows.map((r) => r[i])),
  );
setInterval(() => {
  if (pending.length === 0) return;
  const rows = pending;
  pending = [];
  insertRows(rows).catch(() => {});
}, 250).unref();

const sessionQuery = process.env.MINIMAL_SESSION_QUERY !== '0';

async function authenticate(request) {
  const header = request.headers.authorization ?? '';
  const { payload } = await jwtVerify(header.slice(7), key, { algorithms: ['HS256'] });
  if (!sessionQuery) return { userId: payload.sub, sessionId: payload.sid, email: payload.email ?? '' };
  const { rows } = await q(
    'auth',
    `select u.email, r.type, s.last_seen_at, s.expires_at from sessions s join users u on u.id = s.user_id
     join roles r on r.id = u.role_id where s.id = $1 and s.user_id = $2 and s.revoked_at is null and s.expires_at > now()`,
    [payload.sid, payload.sub],
  );
  if (rows.length === 0 || rows[0].type !== 'admin')
    throw Object.assign(new Error('401'), { statusCode: 401 });
  return { userId: payload.sub, sessionId: payload.sid, email: rows[0].email };
}

app.get('/api/v1/admin/machine', async (request) => {
  const auth = await authenticate(request);
  const [page, count] = await Promise.all([
    q('devices_page', `select ${deviceColumns} from devices order by created_at desc, id desc limit 10`),
    q('devices_count', `select n from table_row_counts where table_name = 'devices'`),
  ]);
  const subs = await subscriptionsOf(page.rows.map((r) => r.serial_number));
  pending.push(logRow(auth, 'GET /api/v1/admin/machine', 200));
  const total = Number(count.rows[0]?.n ?? 0);
  return {
    code: 200,
    msg: 'OK',
    data: {
      allDevices: page.rows.map((r) => toDevice(r, subs)),
      totalPages: Math.ceil(total / 10),
      total,
      page: 1,
      limit: 10,
    },
  };
});

app.get('/api/v1/admin/session', async (request) => {
  const auth = await authenticate(request);
  // The session ping is the "Stay signed in": it writes the session's last-seen time.
  await q('touch', `update sessions set last_seen_at = now() where id = $1`, [auth.sessionId]);
  pending.push(logRow(auth, 'GET /api/v1/admin/session', 200));
  return { code: 200, msg: 'OK', data: { idleSeconds: 1800, expiresInSeconds: 1800 } };
});

app.get('/api/v1/admin/machine/:id', async (request) => {
  const auth = await authenticate(request);
  const { rows } = await q('device', `select ${deviceColumns} from devices where id = $1`, [
    request.params.id,
  ]);
  const subs = await subscriptionsOf(rows.map((r) => r.serial_number));
  pending.push(logRow(auth, 'GET /api/v1/admin/machine/:id', 200));
  return { code: 200, msg: 'OK', data: toDevice(rows[0], subs) };
});

app.get('/api/v1/admin/access-logs/all', async (request) => {
  const auth = await authenticate(request);
  const [page, count] = await Promise.all([
    q(
      'logs_page',
      // The order of the API's index (desc nulls last); plain desc would sort the whole table.
      `select * from access_logs order by created_at desc nulls last, id desc nulls last limit 11`,
    ),
    q('logs_count', `select n from log_counters where log_kind = 'access' and scope = 'all' and key = ''`),
  ]);
  pending.push(logRow(auth, 'GET /api/v1/admin/access-logs/all', 200));
  const total = Number(count.rows[0]?.n ?? 0);
  return {
    code: 200,
    msg: 'OK',
    data: { logs: page.rows.slice(0, 10), total_pages: Math.ceil(total / 10), total, page: 1, limit: 10 },
  };
});

app.put('/api/v1/admin/machine/:id', async (request) => {
  const auth = await authenticate(request);
  const { rows } = await q(
    'set_status',
    `update devices set status = $2, updated_at = now() where id = $1 returning ${deviceColumns}`,
    [request.params.id, request.body.status],
  );
  const subs = await subscriptionsOf(rows.map((r) => r.serial_number));
  // A write's audit row is in the database before the answer.
  await insertRows([logRow(auth, 'PUT /api/v1/admin/machine/:id', 200)]);
  return { code: 200, msg: 'Status updated successfully!', data: toDevice(rows[0], subs) };
});

// The API's heartbeat touches no database per call (decision 038): a known credential is answered
// from memory and last-seen times are written once a second in one statement. The same here.
const knownCredentials = new Map();
let checkIns = new Map();
setInterval(async () => {
  if (checkIns.size === 0) return;
  const rows = JSON.stringify([...checkIns.values()]);
  checkIns = new Map();
  await q(
    'check_in',
    `update devices set last_seen_at = greatest(devices.last_seen_at, v.at),
       app_version_code = v.version_code, app_version_name = v.version_name
     from json_to_recordset($1::json) as v(id uuid, at timestamptz, version_code integer, version_name text)
     where devices.id = v.id`,
    [rows],
  );
}, 1000).unref();

app.post('/api/v1/app/heartbeat', async (request) => {
  const credential = (request.headers.authorization ?? '').slice(7);
  const hash = createHash('sha256').update(credential).digest('hex');
  let deviceId = knownCredentials.get(hash);
  if (!deviceId) {
    const { rows } = await q(
      'credential',
      `select d.id from device_credentials c join devices d on d.id = c.device_id where c.secret_hash = $1 and c.revoked_at is null`,
      [hash],
    );
    if (rows.length === 0) throw Object.assign(new Error('401'), { statusCode: 401 });
    deviceId = rows[0].id;
    knownCredentials.set(hash, deviceId);
  }
  const at = new Date().toISOString();
  checkIns.set(deviceId, {
    id: deviceId,
    at,
    version_code: request.body.versionCode,
    version_name: request.body.versionName,
  });
  return { code: 200, msg: 'OK', data: { serverTime: at, nextHeartbeatSeconds: 300 } };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
