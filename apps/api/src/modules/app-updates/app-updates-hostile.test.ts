import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { craftZip, manifestEntry } from '#api/test/crafted-zip.ts';
import { buildDemoApk } from './zip-writer.ts';
import {
  ctx,
  onStorage,
  fieldsFor,
  limit,
  multipart,
  rowCount,
  sha256,
  storedFiles,
  upload,
} from './app-updates-test-app.ts';

// Every route test runs twice: on disk storage and on S3 storage (the SigV4-checking stand-in).
describe.each(['disk', 's3'] as const)('app updates on %s storage', (kind) => {
  onStorage(kind);

  describe('POST /api/v1/admin/system/updates, hostile uploads', () => {
    it('refuses zip bombs from their declared numbers with 413, and keeps nothing', async () => {
      const before = { files: storedFiles().length, rows: await rowCount() };
      // A few hundred bytes declaring 3 GB once unpacked.
      const declared = craftZip([
        manifestEntry,
        { name: 'assets/a.bin', uncompressed: 1_500_000_000 },
        { name: 'assets/b.bin', uncompressed: 1_500_000_000 },
      ]);
      const big = await upload(fieldsFor({ versionCode: '100' }), { name: 'bomb.apk', data: declared });
      expect(big.statusCode, big.body).toBe(413);
      expect(big.json().msg).toMatch(/^The APK file unpacks to more than the allowed size/);
      // More entries than APK_MAX_ENTRIES (500 in this test), each empty: a 50 kB file.
      const many = craftZip([manifestEntry, ...Array.from({ length: 600 }, (_, i) => ({ name: `r/${i}` }))]);
      expect(many.length).toBeLessThan(limit);
      const crowded = await upload(fieldsFor({ versionCode: '101' }), { name: 'many.apk', data: many });
      expect(crowded.statusCode).toBe(413);
      expect(crowded.json().msg).toBe('The APK file lists too many entries (601 entries, the limit is 500)');
      const overlapping = craftZip([
        manifestEntry,
        { name: 'k.bin', data: Buffer.alloc(500, 1) },
        { name: 'k2.bin', sameOffsetAs: 1, data: Buffer.alloc(500, 1) },
      ]);
      const overlap = await upload(fieldsFor({ versionCode: '102' }), {
        name: 'overlap.apk',
        data: overlapping,
      });
      expect(overlap.statusCode).toBe(415);
      expect(overlap.json().msg).toMatch(/^The APK file is damaged or malformed/);
      expect({ files: storedFiles().length, rows: await rowCount() }).toEqual(before);
    });

    it('never uses entry or file names as paths: traversal names are refused, a good APK lands under a generated name', async () => {
      const before = { files: storedFiles().length, rows: await rowCount() };
      const kept = new Set(storedFiles().filter((name) => !name.endsWith('.part')));
      const escapee = `pwned-${randomBytes(6).toString('hex')}`;
      const traversal = craftZip([manifestEntry, { name: `../../../${escapee}`, data: 'boo' }]);
      const res = await upload(fieldsFor({ versionCode: '110' }), { name: 'traversal.apk', data: traversal });
      expect(res.statusCode).toBe(415);
      expect(res.json().msg).toBe(`The APK file holds an unsafe entry name: "../../../${escapee}"`);
      expect({ files: storedFiles().length, rows: await rowCount() }).toEqual(before);
      for (const dir of [
        ctx.t.config.dataDir,
        path.join(ctx.t.config.dataDir, 'files'),
        path.dirname(ctx.t.config.dataDir),
        '/',
      ]) {
        expect(existsSync(path.join(dir, escapee))).toBe(false);
      }
      // The multipart file name is hostile too: it only becomes a sanitised download name.
      const apk = buildDemoApk('com.example.names', 111);
      const ok = await upload(fieldsFor({ appName: 'com.example.names', versionCode: '111' }), {
        name: '../../x/..\\evil;name.apk',
        data: apk,
      });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().data.fileName).toBe('evil_name.apk');
      // Exactly one new file, under a name we generated (temp files of other requests aside).
      const complete = storedFiles().filter((name) => !name.endsWith('.part'));
      expect(complete.filter((name) => !kept.has(name))).toEqual([
        expect.stringMatching(/^[a-f0-9]{32}\.apk$/),
      ]);
      expect(complete.every((name) => /^[a-f0-9]{32}\.apk$/.test(name))).toBe(true);
      const download = await ctx.t.app.inject({
        method: 'GET',
        url: new URL(ok.json().data.apkUrl).pathname,
      });
      expect(download.headers['content-disposition']).toBe('attachment; filename="evil_name.apk"');
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(sha256(download.rawPayload)).toBe(sha256(apk));
    });

    it('leaves no file and no row when the client goes away mid-upload', async () => {
      const before = { files: storedFiles().length, rows: await rowCount() };
      const address = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const apk = buildDemoApk('com.example.cut', 90, 40_000);
      const { payload, headers } = multipart(fieldsFor({ appName: 'com.example.cut', versionCode: '90' }), {
        name: 'cut.apk',
        data: apk,
      });
      let sawPartial = false;
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/v1/admin/system/updates HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${ctx.token}\r\n` +
              `content-type: ${headers['content-type']}\r\ncontent-length: ${payload.length}\r\n\r\n`,
          );
          socket.write(payload.subarray(0, Math.floor(payload.length / 2)), async () => {
            // Cut the connection only once the server is visibly mid-way: a partial file exists.
            const until = Date.now() + 3000;
            while (Date.now() < until && !storedFiles().some((name) => name.endsWith('.part')))
              await new Promise((r) => setTimeout(r, 10));
            sawPartial = storedFiles().some((name) => name.endsWith('.part'));
            socket.destroy();
          });
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
      // The server notices the reset asynchronously; give it a moment, then nothing may remain.
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline && storedFiles().length !== before.files)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      expect(sawPartial).toBe(true);
      expect({ files: storedFiles().length, rows: await rowCount() }).toEqual(before);
    });
  });
});
