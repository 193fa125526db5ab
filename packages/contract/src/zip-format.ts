/** The ZIP records an APK is read by (PKWARE APPNOTE 4.3): signatures and fixed sizes. */
export const LOCAL_HEADER = 0x04034b50;
export const CENTRAL_HEADER = 0x02014b50;
export const EOCD = 0x06054b50;
export const ZIP64_LOCATOR = 0x07064b50;
export const ZIP64_EOCD = 0x06064b50;
/** Fixed parts of the end record, a central directory header and a local header. */
export const EOCD_MIN = 22;
export const CENTRAL_MIN = 46;
export const LOCAL_MIN = 30;
/** The longest archive comment, so the farthest the end record can sit from the file's end. */
export const MAX_COMMENT = 0xffff;
/** The extra field that carries an entry's 64-bit sizes and offset. */
export const ZIP64_EXTRA = 0x0001;
