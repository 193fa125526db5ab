import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTar, tarEnd, tarHeader, tarPadding, TarFormatError } from './tar-stream.ts';

type File = { name: string; data: Buffer };
const archive = (files: File[]) =>
  Buffer.concat([
    ...files.flatMap((f) => [
      tarHeader({ name: f.name, size: f.data.length, mtime: new Date(1_700_000_000_000) }),
      f.data,
      tarPadding(f.data.length),
    ]),
    tarEnd(),
  ]);

/** The archive in pieces of `size` bytes, as a file stream would hand it over. */
async function* pieces(bytes: Buffer, size = 700) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(bytes: Buffer, options?: { directories?: boolean }) {
  const out: Array<{ name: string; type: string; data: string }> = [];
  for await (const entry of readTar(pieces(bytes), options)) {
    const parts: Buffer[] = [];
    for await (const part of entry.body) parts.push(part);
    out.push({ name: entry.name, type: entry.type, data: Buffer.concat(parts).toString() });
  }
  return out;
}

const longName = `files/${'a'.repeat(60)}/${'b'.repeat(60)}/${'c'.repeat(80)}.apk`;
const files: File[] = [
  { name: 'jwt-secret', data: Buffer.from('secret') },
  { name: 'files/apks/empty.apk', data: Buffer.alloc(0) },
  { name: longName, data: Buffer.alloc(1500, 'x') },
  { name: 'backup.json', data: Buffer.from('{}') },
];

describe('the backup archive format (ustar)', () => {
  it('reads back what it wrote, names longer than 100 bytes included, from a stream in odd pieces', async () => {
    expect(await read(archive(files))).toEqual(
      files.map((f) => ({ name: f.name, type: 'file', data: f.data.toString() })),
    );
  });

  it('writes what GNU tar lists and unpacks', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tar-stream-'));
    try {
      writeFileSync(path.join(dir, 'a.tar'), archive(files));
      const listed = execFileSync('tar', ['-tf', 'a.tar'], { cwd: dir, encoding: 'utf8' });
      expect(listed.trim().split('\n')).toEqual(files.map((f) => f.name));
      execFileSync('tar', ['-xf', 'a.tar'], { cwd: dir });
      expect(readFileSync(path.join(dir, longName), 'utf8')).toBe('x'.repeat(1500));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // no tar on this machine
      throw error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips what a reader leaves unread of a file', async () => {
    const names: string[] = [];
    for await (const entry of readTar(pieces(archive(files)))) names.push(entry.name);
    expect(names).toEqual(files.map((f) => f.name));
  });

  it('refuses a damaged header, a cut-short archive and anything but a regular file', async () => {
    const whole = archive(files);
    const damaged = Buffer.from(whole);
    damaged[10] = damaged[10]! ^ 0xff;
    await expect(read(damaged)).rejects.toThrow(new TarFormatError('a damaged header (checksum)'));
    await expect(read(whole.subarray(0, 1000))).rejects.toThrow(/truncated/);
    await expect(read(whole.subarray(0, 512 * 6))).rejects.toThrow(/truncated/);
    await expect(read(whole.subarray(0, whole.length - 1024))).rejects.toThrow(/stops before its end/);

    const link = tarHeader({ name: 'pgdata', size: 0, mtime: new Date() });
    link.write('5', 156, 'ascii');
    // The checksum covers the type: write it again over the changed header.
    link.write('        ', 148, 'ascii');
    let sum = 0;
    for (const byte of link) sum += byte;
    link.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    const withFolder = Buffer.concat([link, tarEnd()]);
    await expect(read(withFolder)).rejects.toThrow('pgdata: not a regular file');
    expect(await read(withFolder, { directories: true })).toEqual([
      { name: 'pgdata', type: 'directory', data: '' },
    ]);
  });

  it('writes a size of 8 GiB and more in the base-256 form and reads it back', async () => {
    const header = tarHeader({ name: 'database.tar', size: 9 * 1024 ** 3, mtime: new Date() });
    expect(header[124]).toBe(0x80);
    const entries = readTar(pieces(header));
    const first = await entries.next();
    expect(first.value).toMatchObject({ name: 'database.tar', size: 9 * 1024 ** 3 });
  });
});
