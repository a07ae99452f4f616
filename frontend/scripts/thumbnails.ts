/**
 * Blog thumbnails: one 1200x630 SVG card per tool guide (`<tool-id>-guide.svg`), in the tool's
 * category colours, with its emoji icon, its name and the site's name.
 *
 *   node --import tsx frontend/scripts/thumbnails.ts [out-dir]   (default frontend/public/blog)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tools } from '@quire/catalog';

const width = 1200;
const height = 630;
const margin = 96;

/** Two stops of a diagonal gradient per category; unknown categories get a neutral slate. */
const palettes: Record<string, readonly [string, string]> = {
  Convert: ['#2563eb', '#1e3a8a'],
  Extract: ['#0d9488', '#134e4a'],
  Edit: ['#7c3aed', '#4c1d95'],
  Security: ['#dc2626', '#7f1d1d'],
  Utility: ['#d97706', '#7c2d12'],
  Preview: ['#db2777', '#831843'],
};
const fallbackPalette = ['#475569', '#1e293b'] as const;

const sans = "'Inter', 'Segoe UI', 'Helvetica Neue', Arial, sans-serif";
const emojiFonts = "'Apple Color Emoji', 'Segoe UI Emoji', 'Noto Color Emoji', sans-serif";

/** Text made safe for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => {
    switch (ch) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&apos;';
    }
  });
}

/** A font size that keeps the name on one line within the card's margins (about 0.56em a letter). */
function nameSize(name: string): number {
  const room = width - 2 * margin;
  return Math.max(48, Math.min(104, Math.floor(room / (Math.max(1, [...name].length) * 0.56))));
}

export function thumbnailSvg(tool: { name: string; icon: string; category: string }): string {
  const [from, to] = palettes[tool.category] ?? fallbackPalette;
  const name = escapeXml(tool.name);
  const category = escapeXml(tool.category.toUpperCase());
  const size = nameSize(tool.name);
  const box = { x: margin, y: 150, side: 200 };
  // An icon with a slash is a path to an image file, not an emoji: show the name's first letter instead.
  const isEmoji = !tool.icon.includes('/');
  const mark = isEmoji ? escapeXml(tool.icon) : escapeXml(([...tool.name.trim()][0] ?? 'Q').toUpperCase());
  const markFont = isEmoji ? emojiFonts : sans;
  const markSize = isEmoji ? 128 : 120;

  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${name}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/>
      <stop offset="1" stop-color="${to}"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="${width - 140}" cy="120" r="260" fill="#ffffff" fill-opacity="0.06"/>
  <circle cx="${width - 40}" cy="${height - 20}" r="180" fill="#ffffff" fill-opacity="0.05"/>
  <text x="${margin}" y="110" font-family="${sans}" font-size="26" font-weight="600" letter-spacing="4" fill="#ffffff" fill-opacity="0.8">${category}</text>
  <rect x="${box.x}" y="${box.y}" width="${box.side}" height="${box.side}" rx="44" fill="#ffffff" fill-opacity="0.16"/>
  <text x="${box.x + box.side / 2}" y="${box.y + box.side / 2}" text-anchor="middle" dominant-baseline="central" font-family="${markFont}" font-size="${markSize}" font-weight="700" fill="#ffffff">${mark}</text>
  <text x="${margin}" y="470" font-family="${sans}" font-size="${size}" font-weight="700" fill="#ffffff">${name}</text>
  <text x="${margin}" y="535" font-family="${sans}" font-size="34" fill="#ffffff" fill-opacity="0.8">How-to guide</text>
  <text x="${width - 56}" y="${height - 48}" text-anchor="end" font-family="${sans}" font-size="30" font-weight="700" letter-spacing="1" fill="#ffffff" fill-opacity="0.9">Quire</text>
</svg>
`;
}

/** Writes `<tool-id>-guide.svg` for every tool into `dir`, creating it; returns the paths written. */
export async function writeThumbnails(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const tool of tools) {
    const path = join(dir, `${tool.id}-guide.svg`);
    await writeFile(path, thumbnailSvg(tool), 'utf8');
    written.push(path);
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const frontend = join(dirname(fileURLToPath(import.meta.url)), '..');
  const dir = process.argv[2] ? resolve(process.argv[2]) : join(frontend, 'public', 'blog');
  const written = await writeThumbnails(dir);
  console.log(`${written.length} thumbnails written in ${dir}`);
}
