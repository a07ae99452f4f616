/** Runs every benchmark, each against its baseline in the same run, and writes bench/results/. */
import { readFile, writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { join } from 'node:path';
import { benchCompress } from './compress.ts';
import { benchEditor } from './editor.ts';
import { benchFidelity } from './fidelity.ts';
import { benchGateway } from './gateway.ts';
import { benchJobs } from './jobs.ts';
import { benchLongDocs } from './long-docs.ts';
import { benchOcr } from './ocr.ts';
import { benchOffice } from './office.ts';
import { benchRenderer } from './renderer.ts';
import { benchSite } from './site.ts';
import { benchSoak } from './soak.ts';
import { benchVerify } from './verify.ts';
import { resultsDir, root, writeReport, type BenchReport } from './lib.ts';

const benches: [string, () => Promise<BenchReport>][] = [
  ['editor', benchEditor],
  ['compress', benchCompress],
  ['office', benchOffice],
  ['renderer', benchRenderer],
  ['fidelity', benchFidelity],
  ['long-docs', benchLongDocs],
  ['ocr', benchOcr],
  ['site', benchSite],
  ['verify', benchVerify],
  ['gateway', benchGateway],
  ['jobs', benchJobs],
  ['soak', benchSoak],
];
const only = process.argv.slice(2);

// Each bench's section of the summary is kept until that bench runs again, so one bench can be rerun alone.
const summaryFile = join(resultsDir, 'summary.md');
const marker = (name: string) => `<!-- bench: ${name} -->`;
const previous = await readFile(summaryFile, 'utf8').catch(() => '');
const sections = new Map(
  benches.map(([name]) => {
    const start = previous.indexOf(marker(name));
    if (start < 0) return [name, ''];
    const end = previous.indexOf('<!-- bench: ', start + 1);
    return [name, previous.slice(start + marker(name).length, end < 0 ? undefined : end).trim()];
  }),
);
for (const [name, bench] of benches) {
  if (only.length && !only.includes(name)) continue;
  console.error(`bench: ${name}…`);
  const report = await bench();
  await writeReport(report);
  sections.set(name, report.summary);
  console.log(`${report.summary}\n`);
}
const body = [...sections].filter(([, text]) => text).map(([name, text]) => `${marker(name)}\n${text}`);
await writeFile(summaryFile, `# Benchmarks\n\n${body.join('\n\n')}\n`);

// The README shows the same summary between its two markers, formatted as Prettier would (lint checks it).
const readme = join(root, 'README.md');
const text = await readFile(readme, 'utf8');
const [open, close] = ['<!-- bench summary: start -->', '<!-- bench summary: end -->'];
const from = text.indexOf(open);
const to = text.indexOf(close);
if (from >= 0 && to > from) {
  const next = `${text.slice(0, from + open.length)}\n\n${body.join('\n\n')}\n\n${text.slice(to)}`;
  await writeFile(readme, await format(next, { ...(await resolveConfig(readme)), filepath: readme }));
}
