import type { Job } from '@quire/base';
import { run } from './page-reads.ts';
import { VerificationError } from './verify.ts';

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
type Dict = { [key: string]: Value };
/** qpdf's JSON (v2) of every object, streams by their dictionaries only. */
type Objects = Record<string, { value?: Value; stream?: { dict: Dict } }>;

const isDict = (v: Value | undefined): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a PDF/A file must show (ResultChecks.archival): the PDF/A identification in its XMP metadata,
 * an output intent with its ICC profile, every font embedded, no encryption and no JavaScript. These
 * are the parts of PDF/A a result can be read for here; it is not a full validation.
 */
export async function checkArchival(path: string, job: Job): Promise<void> {
  const [json, meta, fonts] = await Promise.all([
    run(job, 'qpdf', ['--json=2', '--json-key=qpdf', '--json-stream-data=none', path]),
    run(job, 'pdfinfo', ['-meta', path]),
    run(job, 'pdffonts', [path]),
  ]);
  const fail = (detail: string): never => {
    throw new VerificationError('archival', detail);
  };
  if (json.code !== 0 && json.code !== 3) fail('qpdf cannot read its objects');
  const objects = (JSON.parse(json.stdout) as { qpdf: [unknown, Objects] }).qpdf[1];
  const resolve = (v: Value | undefined): Value | undefined =>
    typeof v === 'string' && / R$/.test(v) ? (objects[`obj:${v}`]?.value ?? objects[`obj:${v}`]?.stream?.dict) : v;

  const trailer = objects.trailer?.value;
  if (!isDict(trailer)) return fail('no trailer');
  if (trailer['/Encrypt'] !== undefined) fail('encrypted');

  const { part, conformance } = pdfaIdentification(meta.stdout);
  if (!part || !conformance) fail('no PDF/A identification in the XMP metadata');

  const root = resolve(trailer['/Root']);
  const intents = isDict(root) ? resolve(root['/OutputIntents']) : undefined;
  const profiled = (Array.isArray(intents) ? intents : []).some((i) => {
    const intent = resolve(i);
    return isDict(intent) && intent['/S'] === '/GTS_PDFA1' && isDict(resolve(intent['/DestOutputProfile']));
  });
  if (!profiled) fail('no PDF/A output intent with an ICC profile');

  const script = Object.values(objects).some((o) => hasJavaScript(o.value ?? o.stream?.dict ?? null));
  if (script) fail('holds JavaScript');

  if (fonts.code !== 0) fail('pdffonts cannot read it');
  const unembedded = notEmbedded(fonts.stdout);
  if (unembedded.length) fail(`fonts not embedded: ${unembedded.join(', ')}`);
}

/** pdfaid:part and pdfaid:conformance of XMP, written as attributes or as elements. */
export function pdfaIdentification(xmp: string): { part?: string; conformance?: string } {
  const field = (name: string) =>
    new RegExp(`pdfaid:${name}\\s*(?:=\\s*["']([^"']*)["']|>\\s*([^<\\s]*)\\s*<)`).exec(xmp)?.slice(1).find(Boolean);
  return { part: field('part'), conformance: field('conformance') };
}

/** A JavaScript action or name tree anywhere in an object: /S /JavaScript, a /JS entry, or /Names' /JavaScript. */
function hasJavaScript(v: Value): boolean {
  if (Array.isArray(v)) return v.some(hasJavaScript);
  if (!isDict(v)) return false;
  if (
    v['/S'] === '/JavaScript' ||
    '/JS' in v ||
    (isDict(v['/Names'] ?? null) && '/JavaScript' in (v['/Names'] as Dict))
  )
    return true;
  return Object.values(v).some(hasJavaScript);
}

/** The fonts pdffonts lists as not embedded (its `emb` column). */
export function notEmbedded(listing: string): string[] {
  const [header, , ...rows] = listing.split('\n');
  const at = header?.indexOf(' emb ') ?? -1;
  if (at < 0) return [];
  return rows
    .filter((row) => row.slice(at + 1, at + 4) === 'no ')
    .map((row) => row.slice(0, row.indexOf(' ')) || row.trim());
}
