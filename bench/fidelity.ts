/**
 * Fidelity of pdf-extract against ground truth and against LibreOffice's own PDF import, in one run:
 * tables (ICDAR 2013 cell adjacency, plus tabula's and camelot's expected CSVs), text (character
 * accuracy against the corpus's expected texts) and Word (a document -> PDF -> DOCX round trip).
 * Run alone with `node --import tsx bench/fidelity.ts`.
 */
import {
  hasSoffice,
  measureTables,
  measureText,
  measureWord,
  type Summary,
  type WordReport,
} from '../tests/lib/fidelity/harness.ts';
import { writeReport, type BenchReport } from './lib.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function benchFidelity(): Promise<BenchReport> {
  const tables = await measureTables();
  const text = await measureText();
  const word: WordReport | undefined = hasSoffice() ? await measureWord({ baseline: true }) : undefined;
  const lines: string[] = [];
  lines.push('### pdf-extract fidelity', '');
  lines.push(
    `**Tables** (ICDAR 2013, ${tables.perDoc.length} documents, pdf-to-excel, cell adjacency against the structure ground truth, complete process: tables found by the tool, each assigned to the truth table it shares most relations with, unassigned ones false positives):`,
    '',
    '| measure | ours | target |',
    '|---|---|---|',
    `| precision | ${pct(tables.overall.precision)} | |`,
    `| recall | ${pct(tables.overall.recall)} | |`,
    `| F1 (all relations) | ${pct(tables.overall.f1)} | |`,
    `| F1 (mean per document) | ${pct(tables.meanF1)} | ≥ 95% |`,
    '',
  );
  const worst = [...tables.perDoc].sort((a, b) => a.f1 - b.f1).slice(0, 8);
  lines.push(`Weakest documents: ${worst.map((d) => `${d.doc} ${pct(d.f1)}`).join(', ')}.`, '');
  lines.push(
    'Against tabula-java and camelot expected outputs (same measure):',
    '',
    '| document | oracle | F1 |',
    '|---|---|---|',
  );
  for (const o of tables.others) lines.push(`| ${o.doc} | ${o.oracle} | ${pct(o.f1)} |`);
  lines.push(
    '',
    '**Text** (pdf-to-text; character accuracy in reading order, whitespace collapsed; word F1 with words as multisets):',
    '',
    '| document | expected text | character accuracy | word F1 | target |',
    '|---|---|---|---|---|',
  );
  for (const d of text.perDoc)
    lines.push(`| ${d.doc} | ${d.oracle} | ${pct(d.accuracy)} | ${pct(d.wordF1)} | ≥ 99% both |`);
  lines.push('');
  if (word) {
    const b = word.baseline!;
    const o = word.ours;
    const heads = (h: Summary['headings']) => `${h.correct} / ${h.invented} / ${h.missed} (of ${h.source})`;
    const tabs = (t: Summary['tables']) => `${t.source} / ${t.output} / ${t.matched}`;
    lines.push(
      `**Word round trip** (${word.perDoc.length} documents -> PDF with ${word.soffice} -> DOCX; paragraphs outside tables matched one to one with the source's when their token F1 is at least 90%, counts pooled over the documents; a source table with no text in any cell has nothing to keep and is not counted, every output table is):`,
      '',
      '| measure | ours (pdf-to-word) | LibreOffice PDF import | target |',
      '|---|---|---|---|',
      `| paragraph precision | ${pct(o.paragraphs.precision)} | ${pct(b.paragraphs.precision)} | |`,
      `| paragraph recall | ${pct(o.paragraphs.recall)} | ${pct(b.paragraphs.recall)} | |`,
      `| paragraph F1 | ${pct(o.paragraphs.f1)} | ${pct(b.paragraphs.f1)} | ≥ 97% |`,
      `| headings right / invented / missed | ${heads(o.headings)} | ${heads(b.headings)} | invented ≤ 2% of output, missed ≤ 5% |`,
      `| headings at the source's level | ${o.headings.sameLevel}/${o.headings.correct} | ${b.headings.sameLevel}/${b.headings.correct} | |`,
      `| tables (with text) source / output / matched | ${tabs(o.tables)} | ${tabs(b.tables)} | ≥ 90% kept, ≤ 5% invented |`,
      `| text boxes / frames | ${o.frames} | ${b.frames} | 0 |`,
      `| lenient mean best-match F1 (splits and extra paragraphs not counted) | ${pct(o.lenientF1)} | ${pct(b.lenientF1)} | |`,
      '',
      '| document | paragraphs source / output / matched | F1 ours | F1 baseline | headings right / invented / missed | tables (with text) source / output / matched |',
      '|---|---|---|---|---|---|',
      ...word.perDoc.map(
        (d) =>
          `| ${d.doc} | ${d.ours.paragraphs.truth} / ${d.ours.paragraphs.found} / ${d.ours.paragraphs.correct} | ${pct(d.ours.paragraphs.f1)} | ${d.baseline ? pct(d.baseline.paragraphs.f1) : '–'} | ${d.ours.headings.correct} / ${d.ours.headings.invented} / ${d.ours.headings.missed} | ${tabs(d.ours.tables)} |`,
      ),
    );
  } else lines.push('**Word round trip**: skipped, LibreOffice (soffice) is not installed.');
  return { name: 'fidelity', summary: lines.join('\n'), data: { tables, text, word } };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const report = await benchFidelity();
  await writeReport(report);
  console.log(report.summary);
}
