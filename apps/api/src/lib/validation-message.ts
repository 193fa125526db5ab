type Issue = { path: string; message: string };

const words = (field: string) =>
  field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_.\-/]+/)
    .filter((w) => w.length > 2)
    .map((w) => w.toLowerCase());

/**
 * The contract's messages already name their field ('Email is required'); zod's built-in ones do
 * not ('Invalid input'), so those get the field in front. The first problem of each field is kept.
 */
export function validationMessage(issues: Issue[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const { path, message } of issues) {
    if (seen.has(path)) continue;
    seen.add(path);
    const lower = message.toLowerCase();
    const named = !path || lower.includes(path.toLowerCase()) || words(path).some((w) => lower.includes(w));
    parts.push(named ? message : `${path}: ${message}`);
  }
  return parts.join('; ') || 'Invalid request';
}
