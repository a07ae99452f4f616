/**
 * Fidelity of pdf-extract against ground truth and against LibreOffice's own PDF import, in one run:
 * tables (ICDAR 2013 cell adjacency, plus tabula's and camelot's expected CSVs), text (character
 * accuracy against the corpus's expected texts) and Word (a document -> PDF -> DOCX round trip).
 * Run alone with `node --import tsx bench/fidelity.ts`.
 */
import { hasSoffice, measureTables, measureText, measureWord, type WordReport } from '../tests/lib/fidelity/harness.ts';
import { writeReport, type BenchReport } from './lib.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function benchFidelity(): Promise<BenchReport> {
  const tables = await measureTables();
  const text = await measureText();
  const word: WordReport | undefined = hasSoffice() ? await measureWord({ baseline: true }) : undefined;
  const lines: string[] = [];
  lines.push('### pdf-extract fidelity', '');
  lines.push(
    `**Tables** (ICDAR 2013, ${tables.perDoc.length} documents, pdf-to-excel, cell adjacency against the structure ground truth, complete process: tables found by the tool, not given):`,
    '',
    '| measure | ours | target |',
    '|---|---|---|',
    `| precision | ${pct(tables.overall.precision)} | |`,
    `| recall | ${pct(tables.overall.recall)} | |`,
    `| F1 (all relations) | ${pct(tables.overall.f1)} | ≥ 90% |`,
    `| F1 (mean per document) | ${pct(tables.meanF1)} | |`,
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
    '**Text** (pdf-to-text, character accuracy, whitespace collapsed):',
    '',
    '| document | expected text | accuracy | target |',
    '|---|---|---|---|',
  );
  for (const d of text.perDoc) lines.push(`| ${d.doc} | ${d.oracle} | ${pct(d.accuracy)} | ≥ 99% |`);
  lines.push('');
  if (word) {
    const b = word.baseline!;
    lines.push(
      `**Word round trip** (${word.perDoc.length} documents -> PDF with ${word.soffice} -> DOCX; paragraphs compared with the source):`,
      '',
      '| measure | ours (pdf-to-word) | LibreOffice PDF import | target |',
      '|---|---|---|---|',
      `| paragraph text F1 | ${pct(word.ours.paragraphF1)} | ${pct(b.paragraphF1)} | ≥ 95% |`,
      `| headings found | ${word.ours.headingsFound}/${word.ours.headings} | ${b.headingsFound}/${b.headings} | |`,
      `| tables found | ${word.ours.tablesFound}/${word.ours.tables} | ${b.tablesFound}/${b.tables} | |`,
      `| text boxes / frames | ${word.ours.frames} | ${b.frames} | 0 |`,
      '',
      '| document | ours F1 | baseline F1 | headings ours/baseline/source | tables ours/baseline/source |',
      '|---|---|---|---|---|',
      ...word.perDoc.map(
        (d) =>
          `| ${d.doc} | ${pct(d.ours.paragraphF1)} | ${d.baseline ? pct(d.baseline.paragraphF1) : '–'} | ${d.ours.headingsFound}/${d.baseline?.headingsFound ?? '–'}/${d.ours.headings} | ${d.ours.tablesFound}/${d.baseline?.tablesFound ?? '–'}/${d.ours.tables} |`,
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
