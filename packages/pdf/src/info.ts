import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Job } from '@quire/base';
import { qpdf } from './qpdf.ts';

/** A document information entry as a client gives it: text, a number, a flag, or a list of words. */
export type InfoValue = string | number | boolean | string[];

/** Info keys written as the PDF's own names for them; `CreateDate` is how exiftool says CreationDate. */
const dateKeys: Record<string, string> = {
  CreateDate: 'CreationDate',
  CreationDate: 'CreationDate',
  ModDate: 'ModDate',
};

/** A date as PDF writes it (D:YYYYMMDDHHmmSS+HH'mm'), from ISO 8601 or exiftool's `YYYY:MM:DD HH:mm:SS+HH:mm`. */
export function pdfDate(value: string): string | undefined {
  const m = /^(\d{4})[-:](\d{2})[-:](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value.trim(),
  );
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  const tz = !zone ? '' : zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}'${zone.slice(-2)}'`;
  return `D:${y}${mo}${d}${h}${mi}${s}${tz}`;
}

/** One entry as qpdf's JSON (version 2) writes a PDF object: text as `u:`, names with `/`. */
function infoEntry(key: string, value: InfoValue): [string, string] {
  if (dateKeys[key]) {
    const date = typeof value === 'string' ? pdfDate(value) : undefined;
    if (!date) throw new RangeError(`${key} is not a date`);
    return [`/${dateKeys[key]}`, `u:${date}`];
  }
  if (key === 'Trapped') {
    const name = { true: 'True', false: 'False', unknown: 'Unknown' }[String(value).toLowerCase()];
    if (!name) throw new RangeError('Trapped is not True, False or Unknown');
    return ['/Trapped', `/${name}`];
  }
  return [`/${key}`, `u:${Array.isArray(value) ? value.join(', ') : String(value)}`];
}

type Objects = Record<string, { value?: Record<string, unknown> }>;

async function readObjects(
  path: string,
  objects: string[],
  job: Job,
  name: string,
): Promise<[{ maxobjectid: number }, Objects]> {
  const json = join(job.workdir, `${name}.json`);
  await qpdf(
    ['--json=2', '--json-key=qpdf', '--json-stream-data=none', ...objects.map((o) => `--json-object=${o}`), path, json],
    job,
  );
  return (JSON.parse(await readFile(json, 'utf8')) as { qpdf: [{ maxobjectid: number }, Objects] }).qpdf;
}

let writes = 0;

/**
 * Writes `entries` into the document information dictionary of `source`, into `out`, keeping the
 * entries not given: the standard ones (Author, Title, Subject, Keywords, Creator, Producer,
 * CreationDate or CreateDate, ModDate, Trapped) as PDF defines them, any other as text. Throws a
 * RangeError naming an entry whose value cannot be written (a date that is not one).
 */
export async function writeDocumentInfo(
  source: string,
  out: string,
  entries: Record<string, InfoValue>,
  job: Job,
): Promise<void> {
  const values = Object.fromEntries(Object.entries(entries).map(([k, v]) => infoEntry(k, v)));
  const n = ++writes;
  const [header, { trailer }] = await readObjects(source, ['trailer'], job, `info-trailer-${n}`);
  const trailerValue = trailer?.value ?? {};
  const ref = /^(\d+) (\d+) R$/.exec(String(trailerValue['/Info'] ?? ''));
  const updates: Objects = {};
  if (ref) {
    const key = `obj:${ref[1]} ${ref[2]} R`;
    const [, objects] = await readObjects(source, [ref[1]!], job, `info-${n}`);
    updates[key] = { value: { ...(objects[key]?.value ?? {}), ...values } };
  } else {
    const id = header.maxobjectid + 1;
    updates[`obj:${id} 0 R`] = { value: values };
    updates.trailer = { value: { ...trailerValue, '/Info': `${id} 0 R` } };
  }
  const update = join(job.workdir, `info-update-${n}.json`);
  await writeFile(
    update,
    JSON.stringify({
      qpdf: [
        { jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: 0 },
        updates,
      ],
    }),
  );
  await qpdf([source, `--update-from-json=${update}`, out], job);
}
