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
 * CreationDate or CreateDate, ModDate, Trapped) as PDF defines them, any other as text. A document
 * with XMP metadata (PDF/A has it) gets the standard entries written there too, so that the two agree
 * as PDF/A requires. Throws a RangeError naming an entry whose value cannot be written (a date that is
 * not one).
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
  const key = ref && `obj:${ref[1]} ${ref[2]} R`;
  const old = key ? (await readObjects(source, [ref[1]!], job, `info-${n}`))[1][key]?.value : undefined;
  // Always a new object: qpdf's JSON update does not reach one kept in an object stream.
  const id = header.maxobjectid + 1;
  const updates: Objects = {
    [`obj:${id} 0 R`]: { value: { ...(old ?? {}), ...values } },
    trailer: { value: { ...trailerValue, '/Info': `${id} 0 R` } },
  };
  const info = Object.values(updates)[0]!.value as Record<string, unknown>;
  Object.assign(updates, await xmpUpdate(source, trailerValue, info, job, n));
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

/** The XMP properties that mirror the standard information entries (ISO 19005-2, 6.6.2.3.1). */
const xmpOf: Record<string, { ns: 'dc' | 'pdf' | 'xmp'; name: string; form: 'alt' | 'seq' | 'text' | 'date' }> = {
  '/Title': { ns: 'dc', name: 'title', form: 'alt' },
  '/Author': { ns: 'dc', name: 'creator', form: 'seq' },
  '/Subject': { ns: 'dc', name: 'description', form: 'alt' },
  '/Keywords': { ns: 'pdf', name: 'Keywords', form: 'text' },
  '/Producer': { ns: 'pdf', name: 'Producer', form: 'text' },
  '/Trapped': { ns: 'pdf', name: 'Trapped', form: 'text' },
  '/Creator': { ns: 'xmp', name: 'CreatorTool', form: 'text' },
  '/CreationDate': { ns: 'xmp', name: 'CreateDate', form: 'date' },
  '/ModDate': { ns: 'xmp', name: 'ModifyDate', form: 'date' },
};
const namespaces = {
  dc: 'http://purl.org/dc/elements/1.1/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
};

const escapeXml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A PDF date (D:YYYYMMDDHHmmSS+HH'mm') as XMP writes dates (ISO 8601). */
function isoDate(pdf: string): string {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(pdf)!;
  const [, y, mo = '01', d = '01', h, mi = '00', sec = '00', zone] = m;
  const tz = !zone ? '' : zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5)}`;
  return h ? `${y}-${mo}-${d}T${h}:${mi}:${sec}${tz}` : `${y}-${mo}-${d}`;
}

/** The information entries as XMP descriptions, one per namespace. */
function xmpDescriptions(info: Record<string, unknown>): string {
  const byNs = new Map<string, string[]>();
  for (const [key, spec] of Object.entries(xmpOf)) {
    const raw = info[key];
    if (typeof raw !== 'string') continue;
    const value = raw.replace(/^[ub]:/, '').replace(/^\//, '');
    const text = escapeXml(spec.form === 'date' ? isoDate(value) : value);
    const tag = `${spec.ns}:${spec.name}`;
    const body =
      spec.form === 'alt'
        ? `<rdf:Alt><rdf:li xml:lang="x-default">${text}</rdf:li></rdf:Alt>`
        : spec.form === 'seq'
          ? `<rdf:Seq><rdf:li>${text}</rdf:li></rdf:Seq>`
          : text;
    byNs.set(spec.ns, [...(byNs.get(spec.ns) ?? []), `<${tag}>${body}</${tag}>`]);
  }
  return [...byNs]
    .map(([ns, props]) => {
      const uri = namespaces[ns as keyof typeof namespaces];
      return `<rdf:Description rdf:about="" xmlns:${ns}="${uri}">${props.join('')}</rdf:Description>`;
    })
    .join('\n');
}

/**
 * The catalog's XMP stream rewritten to match the information dictionary `info` (qpdf JSON values):
 * its dc, pdf and xmp descriptions replaced, every other kept (PDF/A's identification among them).
 * Nothing for a document without XMP.
 */
async function xmpUpdate(
  source: string,
  trailer: Record<string, unknown>,
  info: Record<string, unknown>,
  job: Job,
  n: number,
): Promise<Objects> {
  const root = /^(\d+) \d+ R$/.exec(String(trailer['/Root'] ?? ''))?.[1];
  if (!root) return {};
  const [, catalog] = await readObjects(source, [root], job, `info-root-${n}`);
  const meta = /^(\d+) (\d+) R$/.exec(String(Object.values(catalog)[0]?.value?.['/Metadata'] ?? ''));
  if (!meta) return {};
  const json = join(job.workdir, `info-xmp-${n}.json`);
  await qpdf(
    ['--json=2', '--json-key=qpdf', '--json-stream-data=inline', '--decode-level=generalized'].concat(
      `--json-object=${meta[1]}`,
      source,
      json,
    ),
    job,
  );
  const key = `obj:${meta[1]} ${meta[2]} R`;
  const objects = (JSON.parse(await readFile(json, 'utf8')) as { qpdf: [unknown, Record<string, StreamObject>] })
    .qpdf[1];
  const stream = objects[key]?.stream;
  if (!stream?.data) return {};
  const xmp = Buffer.from(stream.data, 'base64').toString('utf8');
  // A description of only the mirrored namespaces is written anew; any other is kept as it is.
  const kept = xmp.replace(/<rdf:Description\b[^>]*?(?:\/>|>[\s\S]*?<\/rdf:Description>)\s*/g, (block) => {
    const prefixes = [...block.slice(0, block.indexOf('>')).matchAll(/xmlns:(\w+)=/g)].map((m) => m[1]!);
    return prefixes.length && prefixes.every((p) => p in namespaces) ? '' : block;
  });
  const at = kept.indexOf('</rdf:RDF>');
  if (at < 0) return {};
  const written = `${kept.slice(0, at)}${xmpDescriptions(info)}\n${kept.slice(at)}`;
  const dict = Object.fromEntries(
    Object.entries(stream.dict).filter(([k]) => !['/Filter', '/DecodeParms', '/Length'].includes(k)),
  );
  return { [key]: { stream: { dict, data: Buffer.from(written, 'utf8').toString('base64') } } as never };
}

interface StreamObject {
  stream?: { dict: Record<string, unknown>; data?: string };
}
