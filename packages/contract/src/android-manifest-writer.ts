/**
 * Writes a <manifest> element the way Android's build tools store AndroidManifest.xml (binary XML),
 * for the tests and the demo data: real APKs come from the build tools, never from here. The
 * options reproduce what real files vary in: UTF-8 or UTF-16 string pools, attribute names
 * stripped by shrinkers (then only the resource-id map names them), a versionName that is a
 * resource reference, a versionCode written in hex.
 */
export type ManifestOptions = {
  packageName: string;
  versionCode: number;
  versionName?: string;
  utf8?: boolean;
  stripNames?: boolean;
  versionNameReference?: boolean;
  versionCodeHex?: boolean;
};

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

class Bytes {
  private parts: number[] = [];
  u8(n: number) {
    this.parts.push(n & 0xff);
    return this;
  }
  u16(n: number) {
    return this.u8(n).u8(n >>> 8);
  }
  u32(n: number) {
    return this.u16(n & 0xffff).u16(n >>> 16);
  }
  bytes(b: Uint8Array) {
    for (const x of b) this.u8(x);
    return this;
  }
  get length() {
    return this.parts.length;
  }
  done() {
    return Uint8Array.from(this.parts);
  }
}

/** One chunk: type, header size, total size, then the header's rest and the body. */
function chunk(type: number, header: Uint8Array, body: Uint8Array) {
  return new Bytes()
    .u16(type)
    .u16(8 + header.length)
    .u32(8 + header.length + body.length)
    .bytes(header)
    .bytes(body)
    .done();
}

function stringPool(strings: string[], utf8: boolean) {
  const data = new Bytes();
  const offsets: number[] = [];
  for (const s of strings) {
    offsets.push(data.length);
    if (utf8) {
      const encoded = new TextEncoder().encode(s);
      const length = (n: number) => (n > 0x7f ? data.u8(0x80 | (n >> 8)).u8(n) : data.u8(n));
      length(s.length);
      length(encoded.length);
      data.bytes(encoded).u8(0);
    } else {
      data.u16(s.length);
      for (let i = 0; i < s.length; i++) data.u16(s.charCodeAt(i));
      data.u16(0);
    }
  }
  while (data.length % 4) data.u8(0);
  const header = new Bytes()
    .u32(strings.length)
    .u32(0) // styles
    .u32(utf8 ? 1 << 8 : 0)
    .u32(28 + offsets.length * 4) // where the strings start, from the chunk's start
    .u32(0);
  const body = new Bytes();
  for (const o of offsets) body.u32(o);
  return chunk(0x0001, header.done(), body.bytes(data.done()).done());
}

export function writeBinaryManifest(o: ManifestOptions): Uint8Array {
  // Names of the android: attributes first, so the resource map's index i names string i.
  const strings = [
    o.stripNames ? '' : 'versionCode',
    o.stripNames ? '' : 'versionName',
    'package',
    'manifest',
    ANDROID_NS,
    'android',
    o.packageName,
    o.versionName ?? '',
  ];
  const index = (s: string, from = 2) => strings.indexOf(s, from);
  const attribute = (ns: number, name: number, raw: number, type: number, data: number) =>
    new Bytes().u32(ns).u32(name).u32(raw).u16(8).u8(0).u8(type).u32(data).done();
  const nsIndex = index(ANDROID_NS);
  const attributes = [
    attribute(nsIndex, 0, 0xffffffff, o.versionCodeHex ? 0x11 : 0x10, o.versionCode),
    o.versionNameReference
      ? attribute(nsIndex, 1, 0xffffffff, 0x01, 0x7f0e0001)
      : attribute(nsIndex, 1, 7, 0x03, 7),
    attribute(0xffffffff, index('package'), 6, 0x03, 6),
  ];
  const node = (rest: Bytes) => new Bytes().u32(1).u32(0xffffffff).bytes(rest.done()).done();
  const startElement = new Bytes()
    .u32(0xffffffff)
    .u32(index('manifest'))
    .u16(20) // attributes start, from the element's extension
    .u16(20)
    .u16(attributes.length)
    .u16(0)
    .u16(0)
    .u16(0);
  for (const a of attributes) startElement.bytes(a);
  const body = [
    stringPool(strings, o.utf8 ?? false),
    chunk(0x0180, new Uint8Array(), new Bytes().u32(0x0101021b).u32(0x0101021c).done()),
    chunk(0x0100, node(new Bytes()), new Bytes().u32(index('android')).u32(nsIndex).done()),
    chunk(0x0102, node(new Bytes()), startElement.done()),
    chunk(0x0103, node(new Bytes()), new Bytes().u32(0xffffffff).u32(index('manifest')).done()),
    chunk(0x0101, node(new Bytes()), new Bytes().u32(index('android')).u32(nsIndex).done()),
  ];
  const all = new Bytes();
  for (const b of body) all.bytes(b);
  return chunk(0x0003, new Uint8Array(), all.done());
}
