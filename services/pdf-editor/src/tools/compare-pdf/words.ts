import { exec, timeLeft, ToolError, type Job } from '@quire/base';

/** A word as drawn, its box in points from the page's top left (pdftotext -bbox). */
export interface PlacedWord {
  text: string;
  /** What two words are compared by: NFKC, lower case, without format marks or the punctuation around it. */
  key: string;
  page: number;
  box: { x0: number; y0: number; x1: number; y1: number };
}

export interface PageSize {
  width: number;
  height: number;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#(\d+));/g, (_, name: string, code?: string) =>
    code ? String.fromCodePoint(Number(code)) : entities[name]!,
  );

export const wordKey = (text: string) => {
  // Directional marks around right-to-left runs are not part of a word (as wordsOf has it).
  const word = text
    .normalize('NFKC')
    .replace(/\p{Cf}+/gu, '')
    .toLowerCase();
  return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') || word;
};

/** Every page's size and words, in reading order, from one pdftotext run. */
export async function placedWords(path: string, job: Job): Promise<{ pages: PageSize[]; words: PlacedWord[] }> {
  const { code, stdout, stderr } = await exec('pdftotext', ['-q', '-bbox', '-enc', 'UTF-8', path, '-'], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
    maxOutput: 256 * 1024 * 1024,
  });
  if (code !== 0) throw new ToolError('damaged_input', undefined, { cause: new Error(stderr.slice(-500)) });
  const pages: PageSize[] = [];
  const words: PlacedWord[] = [];
  const tags =
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g;
  for (const m of stdout.matchAll(tags)) {
    if (m[1]) {
      pages.push({ width: Number(m[1]), height: Number(m[2]) });
      continue;
    }
    const text = unescape(m[7]!);
    if (!text.trim()) continue;
    const box = { x0: Number(m[3]), y0: Number(m[4]), x1: Number(m[5]), y1: Number(m[6]) };
    words.push({ text, key: wordKey(text), page: pages.length, box });
  }
  return { pages, words };
}
