/**
 * The text measure itself (tests/lib/fidelity/measures.ts): character accuracy is an edit distance
 * that sees order, exact on small edits, and it stays so past 4,000 word edits.
 */
import { describe, expect, it } from 'vitest';
import { charAccuracy, levenshtein, matchTokensLinear } from '../lib/fidelity/measures.ts';

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
