import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, users } from '#api/db/schema/users.ts';
import { buildDemoApk } from '../app-updates/zip-writer.ts';
import { makeJpeg, makePng, multipartBody, pngChunkTypes } from '#api/test/images.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const fields = { firstName: 'Ada', lastName: 'Lovelace', userName: 'ada', phone: '5551234567' };
const put = (body: { payload: Buffer; headers: Record<string, string> }) =>
  t.injectAs(token, {
    method: 'PUT',
    url: '/api/v1/admin/profile',
    payload: body.payload,
    headers: body.headers,
  });
const withFile = (
  content: Buffer,
  filename = 'me.png',
  type = 'image/png',
  extra: Record<string, string> = {},
) => put(multipartBody({ ...fields, ...extra }, { name: 'file', filename, type, content }));
const avatarFiles = () => {
  const dir = path.join(t.config.dataDir, 'files', 'avatars');
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

describe('GET /api/v1/admin/profile', () => {
  it('returns the signed-in admin', async () => {
    const res = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: testAdmin.email, profileImage: null });
  });
});

describe('PUT /api/v1/admin/profile', () => {
  it('updates the text fields and ignores an email sent with them', async () => {
    const res = await put(multipartBody({ ...fields, email: 'changed@example.test' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe('User profile updated successfully');
    expect(res.json().data).toMatchObject({ ...fields, email: testAdmin.email });
    const again = await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' });
    expect(again.json().data.email).toBe(testAdmin.email);
  });

  it('also takes the fields as JSON', async () => {
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: '/api/v1/admin/profile',
      payload: { ...fields, firstName: 'Augusta' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.firstName).toBe('Augusta');
  });

  it('stores a PNG without its metadata and serves it at the profileImage URL', async () => {
    const png = makePng({ text: 'secret-location 51.5N', exif: 'GPS data' });
    const res = await withFile(png);
    expect(res.statusCode).toBe(200);
    const url: string = res.json().data.profileImage;
    expect(url).toMatch(/^\/api\/v1\/admin\/profile\/image\/[a-f0-9]{32}\.png$/);

    // Public: an <img> cannot send the bearer token.
    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBe('attachment; filename="profile.png"');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    // Only picture chunks (pHYs is the encoder's own pixel density): no tEXt, no eXIf.
    expect(
      pngChunkTypes(image.rawPayload).filter((type) => !['IHDR', 'pHYs', 'IDAT', 'IEND'].includes(type)),
    ).toEqual([]);
    expect(image.rawPayload.includes(Buffer.from('secret-location'))).toBe(false);
    // The same picture: 8 × 8 of the one colour.
    const { data, info } = await sharp(image.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([8, 8]);
    expect([...data.subarray(0, 3)]).toEqual([200, 30, 30]);
  });

  it('encodes the picture anew: bytes hidden in the image data and a ZIP appended after the end are gone', async () => {
    const payload = '<script>alert(document.cookie)</script>';
    const polyglot = Buffer.concat([
      makePng({ idatTrailer: payload }),
      buildDemoApk('com.example.polyglot', 1),
    ]);
    const res = await withFile(polyglot);
    expect(res.statusCode, res.body).toBe(200);
    const image = await t.app.inject({ method: 'GET', url: res.json().data.profileImage });
    expect(image.rawPayload.includes(Buffer.from(payload))).toBe(false);
    expect(image.rawPayload.includes(Buffer.from('AndroidManifest.xml'))).toBe(false);
    expect(image.rawPayload.includes(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(false);
    expect(image.rawPayload.equals(makePng())).toBe(false);
  });

  it('refuses a decompression bomb (a 50000 × 50000 header on a tiny file) with 413 before decoding it', async () => {
    const files = avatarFiles();
    const bomb = makePng({ declare: { width: 50_000, height: 50_000 } });
    expect(bomb.length).toBeLessThan(1000);
    const started = Date.now();
    const res = await withFile(bomb);
    expect(res.statusCode).toBe(413);
    expect(res.json().msg).toBe(
      'The image must be at most 10000 pixels wide and high, and 25 megapixels in all',
    );
    expect(Date.now() - started).toBeLessThan(1000);
    // Within the side limit but over the pixel count.
    const wide = await withFile(makePng({ declare: { width: 9000, height: 9000 } }));
    expect(wide.statusCode).toBe(413);
    // A header that promises more rows than the data holds is damaged, not a 500.
    const short = await withFile(makePng({ declare: { width: 8, height: 4000 } }));
    expect(short.statusCode).toBe(415);
    expect(avatarFiles()).toEqual(files);
  });

  it('scales a large picture down to 1024 px on its longest side', async () => {
    const res = await withFile(makePng({ width: 2000, height: 1000 }));
    expect(res.statusCode).toBe(200);
    const image = await t.app.inject({ method: 'GET', url: res.json().data.profileImage });
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 512]);
  });

  it('strips EXIF, comments and trailing bytes from a JPEG', async () => {
    const jpeg = await makeJpeg({
      exif: 'GPS 48.85N 2.35E',
      comment: 'made by camera X',
      trailer: 'hidden zip',
    });
    const res = await withFile(jpeg, 'me.jpg', 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const url: string = res.json().data.profileImage;
    expect(url).toMatch(/\.jpg$/);
    const image = await t.app.inject({ method: 'GET', url });
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['content-disposition']).toBe('attachment; filename="profile.jpg"');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    const bytes = image.rawPayload;
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    for (const gone of ['GPS', 'camera X', 'hidden zip', 'Exif'])
      expect(bytes.includes(Buffer.from(gone))).toBe(false);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif, meta.comments]).toEqual([
      'jpeg',
      16,
      16,
      undefined,
      undefined,
    ]);
  });

  it('decides by content: a text file named .png is refused with 415', async () => {
    const res = await withFile(Buffer.from('this is just text, not a picture'), 'photo.png', 'image/png');
    expect(res.statusCode).toBe(415);
    expect(res.json().msg).toBe('Only PNG and JPG images are allowed');
  });

  it('accepts a real PNG whatever its name and declared type', async () => {
    const res = await withFile(makePng(), 'notes.txt', 'text/plain');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.profileImage).toMatch(/\.png$/);
  });

  it('refuses a damaged PNG with 415', async () => {
    const png = makePng();
    const res = await withFile(png.subarray(0, png.length - 20));
    expect(res.statusCode).toBe(415);
  });

  it('refuses an image over 2 MB with 413 and keeps the profile as it was', async () => {
    const before = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).json().data
      .profileImage;
    const files = avatarFiles();
    const res = await withFile(makePng({ padTo: 2 * 1024 * 1024 + 10 }));
    expect(res.statusCode).toBe(413);
    expect(res.json().msg).toBe('The image must be at most 2 MB');
    expect(
      (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).json().data.profileImage,
    ).toBe(before);
    expect(avatarFiles()).toEqual(files);
  });

  it('accepts an image of just under 2 MB', async () => {
    const res = await withFile(makePng({ padTo: 2 * 1024 * 1024 - 4096 }));
    expect(res.statusCode).toBe(200);
  });

  it('removes the old file when the image is replaced', async () => {
    const first = (await withFile(makePng({ rgb: [0, 0, 255] }))).json().data.profileImage as string;
    const second = (await withFile(makePng({ rgb: [0, 255, 0] }))).json().data.profileImage as string;
    expect(second).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    expect(avatarFiles()).toEqual([second.split('/').pop()]);
  });

  it('keeps the image when only the text fields change', async () => {
    const image = (await t.injectAs(token, { method: 'GET', url: '/api/v1/admin/profile' })).json().data
      .profileImage;
    const res = await put(multipartBody({ ...fields, lastName: 'Byron' }));
    expect(res.json().data).toMatchObject({ lastName: 'Byron', profileImage: image });
  });

  it('names the field for each validation rule of the update form', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...fields, userName: '' }, 'User name is required'],
      [{ ...fields, phone: '' }, 'Phone number is required'],
      [{ ...fields, phone: '555-1234' }, 'Only digits are allowed'],
      [{ ...fields, phone: '12345' }, 'Phone number is too short'],
    ];
    for (const [body, msg] of cases) {
      const res = await put(multipartBody(body));
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg).toContain(msg);
    }
    const { userName: _omit, ...noUserName } = fields;
    expect((await put(multipartBody(noUserName))).json().msg).toBe('User name is required');
  });

  it('refuses a user name that another user has', async () => {
    // An admin role: a clinic role's user needs a customer (migration 0057's check).
    const [role] = await t.database.db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.type, 'admin'))
      .limit(1);
    await t.database.db
      .insert(users)
      .values({ email: 'taken@example.test', userName: 'taken-name', passwordHash: 'x', roleId: role!.id });
    const res = await put(multipartBody({ ...fields, userName: 'Taken-Name' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe('A user with this user name already exists');
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/admin/profile', ...multipartBody(fields) });
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 for an image name that does not exist or is not ours', async () => {
    for (const name of ['0123456789abcdef0123456789abcdef.png', '..%2F..%2Fjwt-secret', 'x.gif']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/profile/image/${name}` });
      expect(res.statusCode).toBe(404);
    }
  });

  it('never answers odd input with a 500', async () => {
    const bodies = [
      {
        payload: Buffer.from('--x\r\nbroken'),
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      },
      { payload: Buffer.from('{}'), headers: { 'content-type': 'application/json' } },
      { payload: Buffer.from('[1,2]'), headers: { 'content-type': 'application/json' } },
      multipartBody({ ...fields, phone: 'x'.repeat(70_000) }),
    ];
    for (const body of bodies) {
      const res = await put(body);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });
});
