/** A count as the console and the API write it in their texts: 12,345 (without zod: first screens use it). */
export const formatCount = (n: number) => n.toLocaleString('en-US');
