/** Offset and page count for page-numbered lists (docs/product.md §9: page 1, limit 10 by default). */
export const offsetOf = (page: number, limit: number) => (page - 1) * limit;

/** At least one page, so an empty list still reads 'Page 1 of 1'. */
export const pageCount = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/** `%text%` for LIKE with the user's own %, _ and \ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Postgres error code of a failed query, looking through the ORM's wrapper. */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
