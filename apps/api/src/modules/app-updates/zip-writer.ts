import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A minimal ZIP writer (entries stored, or deflated when asked): builds the small APK-shaped files
 * of the demo data and of the tests. Real APKs come from Android's build tools, never from here.
 */
export function buildZip(
  entries: { name: string; data: Buffer | Uint8Array | string; deflate?: boolean }[],
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const plain = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
    const crc = crc32(plain);
    const data = entry.deflate ? deflateRawSync(plain) : plain;
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(plain.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(plain.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A small file shaped like an APK: a ZIP listing AndroidManifest.xml, classes.dex and padding. */
export function buildDemoApk(appName: string, versionCode: number, paddingBytes = 0): Buffer {
  const manifest = `<?xml version="1.0" encoding="utf-8"?>\n<manifest package="${appName.replace(/[^\w.]/g, '')}" android:versionCode="${versionCode}"/>\n`;
  const entries = [
    { name: 'AndroidManifest.xml', data: manifest },
    { name: 'classes.dex', data: Buffer.from(`dex\n035\0demo ${appName} ${versionCode}`) },
    { name: 'resources.arsc', data: Buffer.alloc(256, versionCode % 251) },
  ];
  if (paddingBytes > 0) entries.push({ name: 'assets/padding.bin', data: Buffer.alloc(paddingBytes, 7) });
  return buildZip(entries);
}
