/** Runs every benchmark, each against its baseline in the same run, and writes bench/results/. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { benchEditor } from './editor.ts';
import { benchFidelity } from './fidelity.ts';
import { benchOffice } from './office.ts';
import { benchRenderer } from './renderer.ts';
import { benchSite } from './site.ts';
import { resultsDir, writeReport, type BenchReport } from './lib.ts';

const benches: [string, () => Promise<BenchReport>][] = [
  ['editor', benchEditor],
  ['office', benchOffice],
  ['renderer', benchRenderer],
  ['fidelity', benchFidelity],
  ['site', benchSite],
];
const only = process.argv.slice(2);

const summaries: string[] = [];
for (const [name, bench] of benches) {
  if (only.length && !only.includes(name)) continue;
  console.error(`bench: ${name}…`);
  const report = await bench();
  await writeReport(report);
  summaries.push(report.summary);
  console.log(`${report.summary}\n`);
}
await writeFile(join(resultsDir, 'summary.md'), `# Benchmarks\n\n${summaries.join('\n\n')}\n`);
