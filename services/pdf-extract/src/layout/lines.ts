import type { Frag, Line, Span } from './types.ts';

/**
 * Groups fragments into lines by vertical overlap; each line's fragments in reading direction. Text
 * set sideways (an axis label) is kept apart: its tall box would join the lines it passes.
 */
export function groupLines(frags: readonly Frag[]): Line[] {
  const sorted = [...frags].sort((a, b) => a.top + a.bottom - (b.top + b.bottom));
  const lines: { frags: Frag[]; top: number; bottom: number; size: number }[] = [];
  const sideways: Frag[][] = [];
  for (const f of sorted) {
    if (f.rotated) {
      // Labels set sideways that start level with each other read as one line, left to right.
      const row = sideways.find((r) => Math.abs(r[0]!.top - f.top) < 0.5 * f.size);
      if (row) row.push(f);
      else sideways.push([f]);
      continue;
    }
    const h = f.bottom - f.top;
    let best: (typeof lines)[number] | undefined;
    let bestOverlap = 0;
    // Only the last few lines can still be open, since fragments come top down.
    for (let i = lines.length - 1; i >= 0 && i >= lines.length - 4; i--) {
      const l = lines[i]!;
      const overlap = Math.min(l.bottom, f.bottom) - Math.max(l.top, f.top);
      const need = 0.5 * Math.min(h, l.bottom - l.top);
      if (overlap > need && overlap > bestOverlap) {
        best = l;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.frags.push(f);
      // The line's box follows its main text, not superscripts.
      if (f.size >= best.size * 0.9) {
        best.top = Math.min(best.top, f.top);
        best.bottom = Math.max(best.bottom, f.bottom);
        best.size = Math.max(best.size, f.size);
      }
    } else lines.push({ frags: [f], top: f.top, bottom: f.bottom, size: f.size });
  }
  return [...lines, ...sideways.map((frags) => ({ frags }))]
    .map((l) => makeLine(l.frags))
    .sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

export function makeLine(frags: Frag[]): Line {
  const rtl = frags.filter((f) => f.rtl).length > frags.length / 2;
  const ordered = [...frags].sort((a, b) => (rtl ? b.x1 - a.x1 : a.x0 - b.x0));
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  const weights = new Map<number, number>();
  let base = 0;
  let baseWeight = -1;
  for (const f of ordered) {
    x0 = Math.min(x0, f.x0);
    x1 = Math.max(x1, f.x1);
    top = Math.min(top, f.top);
    bottom = Math.max(bottom, f.bottom);
    const key = Math.round(f.size * 2) / 2;
    const w = (weights.get(key) ?? 0) + f.text.length;
    weights.set(key, w);
    if (f.text.length > baseWeight) {
      baseWeight = f.text.length;
      base = f.base;
    }
  }
  let size = 0;
  let best = -1;
  for (const [s, w] of weights) if (w > best || (w === best && s > size)) [size, best] = [s, w];
  return { frags: ordered, x0, x1, top, bottom, base, size, text: joinFrags(ordered, rtl) };
}

/** Whether a space belongs between two neighbouring fragments. */
export function needsSpace(a: Frag, b: Frag, rtl = false): boolean {
  if (/\s$/.test(a.text) || /^\s/.test(b.text)) return false;
  // Words OCR read apart are words apart, however close their boxes came.
  if (a.ocrLine !== undefined && b.ocrLine !== undefined) return true;
  const gap = rtl ? a.x0 - b.x1 : b.x0 - a.x1;
  return gap > 0.1 * Math.min(a.size, b.size);
}

const combining: Record<string, string> = {
  '\u00B4': '\u0301',
  '`': '\u0300',
  '\u00A8': '\u0308',
  '\u02C6': '\u0302',
  '\u02DC': '\u0303',
  '\u00B8': '\u0327',
  '\u02C7': '\u030C',
  '\u02D8': '\u0306',
  '\u02DA': '\u030A',
  '\u02DD': '\u030B',
  '\u02DB': '\u0328',
  '\u00AF': '\u0304',
  '\u02D9': '\u0307',
};

/** TeX and others draw "é" as "e" and a spacing accent on top: put them back together. */
export function composeAccents(s: string): string {
  if (!/[\u00B4`\u00A8\u02C6\u02DC\u00B8\u02C7\u02D8\u02DA\u02DD\u02DB\u00AF\u02D9]/.test(s)) return s;
  return s.replace(
    /(\p{L})([\u00B4`\u00A8\u02C6\u02DC\u00B8\u02C7\u02D8\u02DA\u02DD\u02DB\u00AF\u02D9])/gu,
    (_, l: string, a: string) => (l + combining[a]!).normalize('NFC'),
  );
}

function joinFrags(frags: readonly Frag[], rtl: boolean): string {
  let s = '';
  for (let i = 0; i < frags.length; i++) {
    if (i > 0 && needsSpace(frags[i - 1]!, frags[i]!, rtl)) s += ' ';
    s += frags[i]!.text;
  }
  return composeAccents(s.replace(/ {2,}/g, ' ').trim());
}

/** A line as runs of one style each; `skip` characters of its start are left out (a list marker). */
export function lineSpans(line: Line, skip = 0): Span[] {
  const spans = line.spans ?? styledRuns(line.frags);
  return skip > 0 ? cutStart(spans, skip) : spans;
}

function styledRuns(frags: readonly Frag[]): Span[] {
  const spans: Span[] = [];
  const rtl = frags.filter((f) => f.rtl).length > frags.length / 2;
  for (let i = 0; i < frags.length; i++) {
    const f = frags[i]!;
    const text = (i > 0 && needsSpace(frags[i - 1]!, f, rtl) ? ' ' : '') + f.text;
    const span: Span = { text, bold: f.font.bold, italic: f.font.italic, size: f.size, family: f.font.family };
    const last = spans[spans.length - 1];
    if (
      last &&
      last.bold === span.bold &&
      last.italic === span.italic &&
      Math.abs(last.size - span.size) < 0.6 &&
      last.family === span.family
    )
      last.text += span.text;
    else spans.push(span);
  }
  if (spans.length) {
    spans[0]!.text = spans[0]!.text.replace(/^\s+/, '');
    spans[spans.length - 1]!.text = spans[spans.length - 1]!.text.replace(/\s+$/, '');
  }
  return spans
    .filter((s) => s.text.length > 0)
    .map((s) => ({ ...s, text: composeAccents(s.text.replace(/ {2,}/g, ' ')) }));
}

/** The runs without their first `count` characters, the space around them not counted. */
function cutStart(spans: readonly Span[], count: number): Span[] {
  const out: Span[] = [];
  let pending = count;
  for (const s of spans) {
    if (pending === 0) {
      out.push(s);
      continue;
    }
    const trimmed = s.text.replace(/^\s+/, '');
    const cut = Math.min(pending, trimmed.length);
    pending -= cut;
    const text = trimmed.slice(cut).replace(/^\s+/, '');
    if (text) out.push({ ...s, text });
  }
  // The line starts where the cut ends, as a line without the cut starts at its first letter.
  const first = out[0];
  if (first && /^\s/.test(first.text)) out[0] = { ...first, text: first.text.replace(/^\s+/, '') };
  return out.filter((s) => s.text);
}

/**
 * A line's runs kept and its fragments let go, once the page is laid out: what the writers read of it
 * stays, at a fraction of the memory a long document would hold in fragments until it is written.
 */
export function settleLine(line: Line): void {
  line.spans = styledRuns(line.frags);
  line.frags = [];
}

/**
 * Lines of one paragraph as one string: a soft hyphen at a line's end joins the words, and so does
 * a line marked in `tight` (one ending in a hyphen that belongs to the text).
 */
export function joinLines(texts: readonly string[], tight: readonly boolean[] = []): string {
  let out = '';
  texts.forEach((t, i) => {
    if (!out) out = t;
    else if (out.endsWith('\u00AD')) out = out.slice(0, -1) + t;
    else out += (tight[i - 1] ? '' : ' ') + t;
  });
  return out.replace(/\u00AD/g, '');
}
