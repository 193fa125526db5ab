/**
 * An exported file's lines as cells (RFC 4180: quoted cells, doubled quotes), without the byte order
 * mark; the header is the first line.
 */
export function csvCells(body: string): string[][] {
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  const text = body.replace(/^\uFEFF/, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\r')) {
      cell += c;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else {
      // \r\n ends a line.
      cells.push(cell);
      lines.push(cells);
      cells = [];
      cell = '';
      i++;
    }
  }
  return lines;
}
