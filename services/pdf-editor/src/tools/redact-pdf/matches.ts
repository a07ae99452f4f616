import { Worker } from 'node:worker_threads';
import { ToolError } from '@quire/base';

/** What a match was found by: the terms, a built-in pattern, or the visitor's regular expression. */
export type MatchKind = 'terms' | 'emails' | 'phones' | 'regex';

export interface Search {
  kind: MatchKind;
  source: string;
  flags: string;
}

/** Text a search found: on a page (from 0), its offsets in that page's text, and the text itself. */
export interface Match {
  kind: MatchKind;
  page: number;
  start: number;
  end: number;
  text: string;
}

/** An e-mail address: a local part, @, and a domain with a dot (Unicode letters allowed). */
const email = String.raw`[\p{L}\p{N}._%+\-]+@[\p{L}\p{N}\-]+(?:\.[\p{L}\p{N}\-]+)*\.\p{L}{2,}`;
/**
 * A phone number as people write it: an optional +country code, an optional area code in brackets, then
 * groups of digits joined by a space, dot or dash (+33 1 23 45 67 89, (555) 123-4567, 020 7946 0958) or
 * run together; 7 to 15 digits in all (the worker counts them), not inside a longer word or number.
 */
const phone = String.raw`(?<![\p{L}\p{N}+])(?:\+\d{1,3}[ .\-]?)?(?:\(\d{1,5}\)[ .\-]?)?\d{2,}(?:[ .\-]\d{2,}){0,5}(?![\p{L}\p{N}])`;

/** A term as a pattern: its letters literal, any run of spaces matching any whitespace (a line break too). */
function termPattern(term: string): string {
  return term
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .join(String.raw`\s+`);
}

/** The searches the options ask for, each with the flags it runs with. */
export function searchesOf(o: {
  terms?: string;
  emails: boolean;
  phones: boolean;
  regex?: string;
  matchCase: boolean;
}): Search[] {
  const flags = o.matchCase ? 'gu' : 'giu';
  const terms = [
    ...new Set(
      (o.terms ?? '')
        .split('\n')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  // Longest first, so that "Ann Smith" wins over "Ann" where both match.
  terms.sort((a, b) => b.length - a.length);
  const searches: Search[] = [];
  if (terms.length) searches.push({ kind: 'terms', source: terms.map(termPattern).join('|'), flags });
  if (o.emails) searches.push({ kind: 'emails', source: email, flags: 'giu' });
  if (o.phones) searches.push({ kind: 'phones', source: phone, flags: 'gu' });
  if (o.regex) searches.push({ kind: 'regex', source: o.regex, flags });
  return searches;
}

/**
 * The worker's code: every search over every page, empty matches skipped, phone numbers of 7 to 15
 * digits only. Plain JavaScript, so that the worker needs no loader.
 */
const workerCode = `
const { parentPort, workerData } = require('node:worker_threads');
const found = [];
for (const s of workerData.searches) {
  const re = new RegExp(s.source, s.flags);
  workerData.pages.forEach((text, page) => {
    for (const m of text.matchAll(re)) {
      if (m[0].length === 0) continue;
      if (s.kind === 'phones') {
        const digits = m[0].replace(/\\D/g, '').length;
        if (digits < 7 || digits > 15) continue;
      }
      found.push({ kind: s.kind, page, start: m.index, end: m.index + m[0].length, text: m[0] });
    }
  });
}
parentPort.postMessage(found);
`;

/** How long the searches may run: real patterns take milliseconds even on long documents. */
export const searchBudgetMs = 10_000;

/**
 * Runs the searches over the pages' text in a worker thread, which is stopped when they take longer
 * than the budget (a pattern such as `(a+)+$` backtracks for ever on some text; a regular expression
 * cannot be interrupted in the thread that runs it): the call is then answered `regex_too_slow`.
 */
export function findMatches(
  searches: Search[],
  pages: string[],
  signal: AbortSignal,
  budgetMs = searchBudgetMs,
): Promise<Match[]> {
  if (searches.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerCode, { eval: true, workerData: { searches, pages } });
    const stop = (err: unknown) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      reject(err);
    };
    const timer = setTimeout(
      () => stop(new ToolError('regex_too_slow', undefined, { details: { option: 'regex' } })),
      budgetMs,
    );
    const onAbort = () => stop(signal.reason instanceof ToolError ? signal.reason : new ToolError('timeout'));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (found: Match[]) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(found);
    });
    worker.once('error', (err) => stop(new ToolError('internal', undefined, { cause: err })));
  });
}

/** Each page's ranges to remove, overlapping and touching ones joined: [[start, end]], pages from 0. */
export function rangesByPage(matches: Match[]): Map<number, [number, number][]> {
  const byPage = new Map<number, [number, number][]>();
  for (const m of [...matches].sort((a, b) => a.page - b.page || a.start - b.start)) {
    const ranges = byPage.get(m.page) ?? [];
    const last = ranges.at(-1);
    if (last && m.start <= last[1]) last[1] = Math.max(last[1], m.end);
    else ranges.push([m.start, m.end]);
    byPage.set(m.page, ranges);
  }
  return byPage;
}
