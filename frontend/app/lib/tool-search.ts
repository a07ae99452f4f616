import { searchTools } from '@quire/catalog/site';

/** The spec's search: the first tool of the search list whose id contains the typed text. */
export function searchTool(text: string): string | undefined {
  const query = text.trim().toLowerCase();
  return query ? searchTools.find((id) => id.includes(query)) : undefined;
}

/** What a tool can be found by, in the visitor's language and in English. */
export interface SearchEntry {
  id: string;
  usage: number;
  /** Its names, id and aliases: a word of these counts twice a keyword's. */
  names: readonly string[];
  /** Common words for it (comma-separated lists are fine). */
  keywords: readonly string[];
}

/** Lowercase, without Latin accents or Arabic vowel marks: "Fusión" is found by "fusion". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .replace(/[\u064B-\u065F\u0670]/g, '')
    .toLowerCase();
}

function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
}

/** 3 when a word is the token, 2 when one begins with it, 1 when one holds it (tokens of 3 or more), else 0. */
function match(token: string, words: readonly string[]): number {
  if (words.includes(token)) return 3;
  if (words.some((w) => w.startsWith(token))) return 2;
  return token.length >= 3 && words.some((w) => w.includes(token)) ? 1 : 0;
}

/**
 * The tools a query suggests, best first: every word of the query must match a word of the tool's names
 * or keywords; names weigh more, a name that begins with the whole query most, then the more used tool.
 */
export function suggestTools(query: string, entries: readonly SearchEntry[], limit = 8): string[] {
  const tokens = wordsOf(query);
  if (tokens.length === 0) return [];
  const phrase = fold(query.trim());
  const scored: { id: string; score: number; usage: number }[] = [];
  for (const entry of entries) {
    const names = entry.names.flatMap(wordsOf);
    const keywords = entry.keywords.flatMap(wordsOf);
    const best = tokens.map((token) => Math.max(2 * match(token, names), match(token, keywords)));
    if (best.includes(0)) continue;
    let score = best.reduce((sum, n) => sum + n, 0);
    if (entry.names.some((n) => fold(n).startsWith(phrase))) score += 3;
    scored.push({ id: entry.id, score, usage: entry.usage });
  }
  return scored
    .sort((a, b) => b.score - a.score || b.usage - a.usage)
    .slice(0, limit)
    .map((s) => s.id);
}
