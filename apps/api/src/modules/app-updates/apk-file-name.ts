/** A file name safe for a Content-Disposition header and a file system; always ends in .apk. */
export function safeApkFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/\.apk$/i, '')
    .replace(/[^A-Za-z0-9._ -]+/g, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 100)
    .trim();
  return `${cleaned || 'app'}.apk`;
}
