/** Lower-case words, punctuation trimmed from their ends: what an OCR is scored on. */
export function wordsOf(text: string): string[] {
  const trim = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(trim, ''))
    .filter((w) => w.length > 0);
}

/** Word precision and recall of `found` against `truth`, each true word matched at most once. */
export function wordMatch(found: string, truth: string): { precision: number; recall: number } {
  const left = new Map<string, number>();
  const expected = wordsOf(truth);
  for (const w of expected) left.set(w, (left.get(w) ?? 0) + 1);
  const got = wordsOf(found);
  const matched = got.filter((w) => {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    return n > 0;
  }).length;
  return { precision: matched / Math.max(1, got.length), recall: matched / Math.max(1, expected.length) };
}
