import type { Rng } from '@app/fake-data/random';

const palettes = [
  ['#0d3b66', '#f4d35e', '#ee964b', '#f95738'],
  ['#1b263b', '#415a77', '#e0a458', '#d1495b'],
  ['#22223b', '#4a4e69', '#f2a65a', '#e63946'],
  ['#073b4c', '#118ab2', '#ffd166', '#ef476f'],
] as const;

/**
 * A small treatment snapshot made at seed time, no files or network: a heat map of the treated
 * area as an SVG data URL (about 1 kB), the way the device's camera overlay would show it.
 */
export function treatmentImage(rng: Rng, label: string): string {
  const [bg, cool, warm, hot] = rng.pick(palettes);
  const cx = rng.int(50, 110);
  const cy = rng.int(40, 80);
  const r = rng.int(22, 40);
  const spots = Array.from({ length: rng.int(2, 4) }, () => {
    const x = cx + rng.int(-30, 30);
    const y = cy + rng.int(-22, 22);
    return `<circle cx="${x}" cy="${y}" r="${rng.int(6, 14)}" fill="${warm}" opacity="0.55"/>`;
  }).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120" viewBox="0 0 160 120">` +
    `<defs><radialGradient id="h"><stop offset="0" stop-color="${hot}"/><stop offset="0.55" stop-color="${warm}"/><stop offset="1" stop-color="${cool}" stop-opacity="0"/></radialGradient></defs>` +
    `<rect width="160" height="120" fill="${bg}"/>` +
    `<path d="M0 30H160M0 60H160M0 90H160M40 0V120M80 0V120M120 0V120" stroke="#ffffff" stroke-opacity="0.12"/>` +
    `<ellipse cx="80" cy="62" rx="58" ry="40" fill="none" stroke="${cool}" stroke-width="2" stroke-dasharray="4 3"/>` +
    spots +
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#h)"/>` +
    `<text x="6" y="114" font-family="sans-serif" font-size="10" fill="#ffffff">${label}</text>` +
    `</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
