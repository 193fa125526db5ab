import { crc32 } from './crc32.ts';
import { CENTRAL_HEADER, CENTRAL_MIN, EOCD, EOCD_MIN, LOCAL_HEADER, LOCAL_MIN } from './zip-format.ts';

/**
 * A minimal ZIP writer for the tests (API and browser) and the demo data: real APKs come from
 * Android's build tools, never from here. No runtime dependency, so the browser tests can build
 * an APK too; a deflated entry needs the caller's raw DEFLATE (node's zlib in the API).
 */
export type ZipEntry = { name: string; data: Uint8Array | string; deflate?: boolean };

export function buildZip(
  entries: ZipEntry[],
  deflateRaw?: (data: Uint8Array) => Uint8Array,
): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const plain = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    if (entry.deflate && !deflateRaw) throw new Error(`buildZip: ${entry.name} asks for deflate, none given`);
    const data = entry.deflate && deflateRaw ? deflateRaw(plain) : plain;
    const method = entry.deflate ? 8 : 0;
    const crc = crc32(plain);

    const local = new DataView(new ArrayBuffer(LOCAL_MIN));
    local.setUint32(0, LOCAL_HEADER, true);
    local.setUint16(4, 20, true); // version needed
    local.setUint16(6, 0x0800, true); // UTF-8 names
    local.setUint16(8, method, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, plain.length, true);
    local.setUint16(26, name.length, true);
    locals.push(new Uint8Array(local.buffer), name, data);

    const central = new DataView(new ArrayBuffer(CENTRAL_MIN));
    central.setUint32(0, CENTRAL_HEADER, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(10, method, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, plain.length, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += LOCAL_MIN + name.length + data.length;
  }
  const directorySize = centrals.reduce((n, part) => n + part.length, 0);
  const end = new DataView(new ArrayBuffer(EOCD_MIN));
  end.setUint32(0, EOCD, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);

  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const zip = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    zip.set(part, at);
    at += part.length;
  }
  return zip;
}
