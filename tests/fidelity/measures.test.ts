/**
 * The measures themselves (tests/lib/fidelity/measures.ts): character accuracy is an edit distance
 * that sees order, exact on small edits, and it stays so past 4,000 word edits; the Word measure
 * matches paragraphs one to one; the table measure assigns each found table to one truth table.
 */
import { describe, expect, it } from 'vitest';
import {
  charAccuracy,
  compareParagraphs,
  compareTables,
  levenshtein,
  matchTokensLinear,
  type DocxContent,
  type DocxParagraph,
  type GridTable,
} from '../lib/fidelity/measures.ts';

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function table<T>(n: number, m: number, cell: (i: number, j: number, row: T[], prev: T[]) => T): T[] {
  let prev: T[] = [];
  for (let i = 0; i <= n; i++) {
    const row: T[] = [];
    for (let j = 0; j <= m; j++) row.push(cell(i, j, row, prev));
    prev = row;
  }
  return prev;
}

/** The textbook dynamic programme, for comparison. */
const plainLevenshtein = (a: string, b: string) =>
  table<number>(a.length, b.length, (i, j, row, prev) =>
    i === 0 ? j : j === 0 ? i : Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)),
  )[b.length]!;

const plainLcs = (a: string[], b: string[]) =>
  table<number>(a.length, b.length, (i, j, row, prev) =>
    i === 0 || j === 0 ? 0 : a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!),
  )[b.length]!;

const pick = (r: () => number, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]!).join('');

/** A made-up word list: `n` words of 2 to 9 letters. */
function words(r: () => number, n: number): string[] {
  return Array.from({ length: n }, () => pick(r, 'abcdefghijklmnopqrstuvwxyz', 2 + Math.floor(r() * 8)));
}

/** Two columns of made-up lines: in reading order (left, then right), and interleaved line by line. */
function twoColumns(seed: number, lines: number, perLine: number) {
  const r = random(seed);
  const column = () => Array.from({ length: lines }, () => words(r, perLine).join(' '));
  const [left, right] = [column(), column()];
  return {
    ordered: [...left, ...right].join('\n'),
    interleaved: left.flatMap((l, i) => [l, right[i]!]).join('\n'),
  };
}

describe('levenshtein', () => {
  it('equals the dynamic programme on random pairs, across 32-row blocks', () => {
    const r = random(7);
    for (let n = 0; n < 300; n++) {
      const a = pick(r, 'abcd ', Math.floor(r() * 140));
      const b = r() < 0.5 ? pick(r, 'abcd ', Math.floor(r() * 140)) : a.replace(/b/g, () => pick(r, 'abe', 1));
      expect(levenshtein(a, b)).toBe(plainLevenshtein(a, b));
    }
  });

  it('counts UTF-16 code units outside the pattern as mismatches', () => {
    expect(levenshtein('façade', 'facade')).toBe(1);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('abc', '')).toBe(3);
  });
});

describe('matchTokensLinear', () => {
  it('finds a longest common subsequence, in order, on random token lists', () => {
    const r = random(11);
    for (let n = 0; n < 300; n++) {
      const a = pick(r, 'abcdef', Math.floor(r() * 60)).split('');
      const b = pick(r, 'abcdef', Math.floor(r() * 60)).split('');
      const pairs = matchTokensLinear(a, b);
      expect(pairs.length).toBe(plainLcs(a, b));
      pairs.forEach(([x, y], i) => {
        expect(a[x]).toBe(b[y]);
        if (i) expect(x > pairs[i - 1]![0] && y > pairs[i - 1]![1]).toBe(true);
      });
    }
  });
});

describe('charAccuracy', () => {
  const expected = 'The quick brown fox jumps over the lazy dog.';
  const n = expected.length;

  it('gives 1 to identical text, whitespace apart', () => {
    expect(charAccuracy(expected, expected)).toBe(1);
    expect(charAccuracy(expected.replace(/ /g, '\n  '), expected)).toBe(1);
  });

  it('charges exactly one edit for one insertion, deletion or substitution', () => {
    expect(charAccuracy('The quick brown fox jumps over the lazzy dog.', expected)).toBeCloseTo(1 - 1 / n, 12);
    expect(charAccuracy('The quick brown fox jumps over the lay dog.', expected)).toBeCloseTo(1 - 1 / n, 12);
    expect(charAccuracy('The quick brown fox jumps over the lozy dog.', expected)).toBeCloseTo(1 - 1 / n, 12);
  });

  it('scores an empty result 0', () => {
    expect(charAccuracy('', expected)).toBe(0);
    expect(charAccuracy('', '')).toBe(1);
    expect(charAccuracy('text where none is expected', '')).toBe(0);
  });

  it('counts invented text against the result', () => {
    const invented = ' and then some invented words';
    expect(charAccuracy(expected + invented, expected)).toBeCloseTo(1 - invented.length / n, 12);
    expect(charAccuracy(`${expected} ${expected}`, expected)).toBe(0);
  });

  it('sees a reading order two columns interleaved line by line, past 4,000 word edits', () => {
    const { ordered: truth, interleaved } = twoColumns(3, 400, 8);
    // The words' minimal diff needs more edits than the greedy diff is allowed: the linear-space path.
    const [ta, tb] = [truth.split(/\s+/), interleaved.split(/\s+/)];
    expect(ta.length + tb.length - 2 * matchTokensLinear(ta, tb).length).toBeGreaterThan(4000);

    expect(charAccuracy(truth.replace(/\n/g, ' '), truth)).toBe(1);
    // One letter wrong in every third word: still a good reading, and exactly so.
    let wrong = 0;
    const typos = truth.replace(/\S+/g, (w) => (wrong++ % 3 === 0 ? `${w.slice(0, -1)}#` : w));
    expect(charAccuracy(typos, truth)).toBeCloseTo(1 - Math.ceil(ta.length / 3) / truth.length, 12);
    const garbled = charAccuracy(interleaved, truth);
    expect(garbled).toBeLessThan(0.6);
    expect(charAccuracy(typos, truth) - garbled).toBeGreaterThan(0.3);
  });

  it('sees a swapped pair of columns on a short page as well', () => {
    const { ordered, interleaved } = twoColumns(5, 20, 6);
    expect(charAccuracy(interleaved, ordered)).toBeLessThan(0.6);
  });
});

describe('compareParagraphs: the strict Word measure', () => {
  const para = (text: string, heading = false): DocxParagraph => ({
    text,
    style: heading ? 'Heading1' : '',
    heading,
    level: heading ? 1 : 0,
    inTable: false,
  });
  const doc = (paragraphs: DocxParagraph[], tableTexts: string[] = []): DocxContent => ({
    paragraphs,
    tables: tableTexts.length,
    tableTexts,
    frames: 0,
  });
  const r = random(17);
  const long = Array.from({ length: 6 }, () => words(r, 40).join(' '));
  const source = doc([para('Introduction', true), ...long.map((t) => para(t))]);

  it('scores an exact copy 1 on every count', () => {
    const s = compareParagraphs(source, source);
    expect(s.paragraphs).toMatchObject({ correct: 7, truth: 7, found: 7, f1: 1 });
    expect(s.headings).toMatchObject({ source: 1, output: 1, correct: 1, invented: 0, missed: 0, sameLevel: 1 });
  });

  it('matches no piece of a paragraph cut into five lines, where the lenient figure stays near 1', () => {
    const cut = long[0]!.split(' ');
    const lines = Array.from({ length: 5 }, (_, i) => cut.slice(i * 8, i * 8 + 8).join(' '));
    const s = compareParagraphs(
      source,
      doc([para('Introduction', true), ...lines.map((t) => para(t)), ...long.slice(1).map((t) => para(t))]),
    );
    expect(s.paragraphs).toMatchObject({ correct: 6, truth: 7, found: 11 });
    expect(s.paragraphs.recall).toBeCloseTo(6 / 7, 12);
    expect(s.paragraphs.precision).toBeCloseTo(6 / 11, 12);
    expect(s.lenientF1).toBeGreaterThan(0.9);
  });

  it('lowers precision for an invented paragraph, and counts an invented heading', () => {
    const s = compareParagraphs(source, doc([...source.paragraphs, para('Page 3 of 12', true)]));
    expect(s.paragraphs.recall).toBe(1);
    expect(s.paragraphs.precision).toBeCloseTo(7 / 8, 12);
    expect(s.paragraphs.f1).toBeLessThan(1);
    expect(s.headings).toMatchObject({ output: 2, correct: 1, invented: 1, missed: 0 });
  });

  it('uses each output paragraph once: a duplicate source paragraph needs two copies', () => {
    const twice = doc([para(long[0]!), para(long[0]!)]);
    expect(compareParagraphs(twice, doc([para(long[0]!)])).paragraphs).toMatchObject({
      correct: 1,
      truth: 2,
      found: 1,
    });
  });

  it('counts a heading written as body text as missed, and tables kept, lost and invented', () => {
    const rows = ['Name Age City', 'Ann 31 Oslo', 'Bo 42 Lima'];
    const src = doc(source.paragraphs, [rows.join(' '), 'Total 73']);
    const out = doc([para('Introduction'), ...long.map((t) => para(t))], [rows.join(' '), 'Unrelated words here']);
    const s = compareParagraphs(src, out);
    expect(s.headings).toMatchObject({ source: 1, output: 0, correct: 0, missed: 1 });
    expect(s.tables).toEqual({ source: 2, output: 2, matched: 1 });
    // An empty source table is not there to keep; an empty output table is still one invented.
    const blankSource = compareParagraphs(doc(source.paragraphs, [rows.join(' '), '']), out);
    expect(blankSource.tables).toEqual({ source: 1, output: 2, matched: 1 });
    const blankOutput = compareParagraphs(src, doc(out.paragraphs, [rows.join(' '), 'Total 73', '']));
    expect(blankOutput.tables).toEqual({ source: 2, output: 3, matched: 2 });
  });
});

describe('compareTables: ICDAR 2013 with tables assigned', () => {
  const grid = (rows: string[][]): GridTable => ({
    page: 1,
    cells: rows.flatMap((row, i) => row.map((text, j) => ({ sr: i, sc: j, er: i, ec: j, text }))),
  });
  const a = grid([
    ['x', 'y'],
    ['1', '2'],
  ]);
  const b = grid([
    ['p', 'q'],
    ['3', '4'],
  ]);

  it('gives 1 to the same tables, and counts a table found twice or invented against precision', () => {
    expect(compareTables([a, b], [b, a]).f1).toBe(1);
    const dup = compareTables([a, b], [a, a, b]);
    expect(dup).toMatchObject({ correct: 8, truth: 8, found: 12 });
    const invented = compareTables([a], [a, grid([['m', 'n']])]);
    expect(invented).toMatchObject({ correct: 4, truth: 4, found: 5 });
  });

  it('credits a found table only with the truth table it is assigned to', () => {
    // One found table holding both truth tables side by side: assigned to one of them only.
    const merged = grid([
      ['x', 'y', 'p', 'q'],
      ['1', '2', '3', '4'],
    ]);
    const s = compareTables([a, b], [merged]);
    expect(s.truth).toBe(8);
    expect(s.correct).toBe(4);
  });
});
