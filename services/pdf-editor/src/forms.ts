import { mkdir } from 'node:fs/promises';
import { qpdf } from '@quire/pdf';
import type { ToolContext } from '@quire/service-kit';
import {
  applyUpdates,
  asDict,
  dumpObjects,
  referenced,
  type Objects,
  type PdfDict,
  type PdfValue,
} from './qpdf-json.ts';
import { workPath } from './pdf.ts';

/** Where a page holds the annotations kept from flattening meanwhile; gone from the result. */
const keptAnnots = '/QuireKeptAnnots';

/**
 * The form's fields drawn as their values say, by qpdf (text and choices in the field's own font and
 * size; check boxes and radio buttons by their states), and with `flatten` every annotation that has a
 * look (fields, comments, stamps) burned into its page: no field is left, and the page looks the same.
 * qpdf drops the annotations it cannot burn in, those without a look of their own that readers draw
 * themselves (a link, a note, a highlight made without one): they are set aside on their page while it
 * flattens, and put back.
 */
export async function drawForm(ctx: ToolContext, source: string, out: string, flatten: boolean): Promise<void> {
  const draw = (from: string, to: string) =>
    qpdf([from, '--generate-appearances', ...(flatten ? ['--flatten-annotations=all'] : []), to], ctx);
  if (!flatten) return void (await draw(source, out));
  const dir = workPath(ctx, 'flatten');
  await mkdir(dir, { recursive: true });
  const setAside = changePages(await dumpObjects(source, dir, ctx), (page, annots, resolve) => {
    const kept = annots.filter((a) => lookless(resolve(a)));
    if (kept.length === 0) return undefined;
    return { ...page, '/Annots': annots.filter((a) => !kept.includes(a)), [keptAnnots]: kept };
  });
  if (Object.keys(setAside).length === 0) return void (await draw(source, out));
  const [marked, flat] = [workPath(ctx, 'marked.pdf'), workPath(ctx, 'flattened.pdf')];
  await applyUpdates(source, marked, setAside, dir, ctx);
  await draw(marked, flat);
  const putBack = changePages(await dumpObjects(flat, dir, ctx), (page, annots) => {
    const { [keptAnnots]: kept, ...rest } = page;
    return Array.isArray(kept) ? { ...rest, '/Annots': [...annots, ...kept] } : undefined;
  });
  await applyUpdates(flat, out, putBack, dir, ctx);
}

/** An annotation qpdf would drop when flattening: not a field's, and without an appearance stream. */
function lookless(d: PdfDict | undefined): boolean {
  return d !== undefined && d['/AP'] === undefined && d['/Subtype'] !== '/Widget';
}

/**
 * The pages that change when `change` is applied to each, given its annotations (inline or referenced)
 * and a way to read one; `change` gives undefined to leave a page be.
 */
function changePages(
  objects: Objects,
  change: (page: PdfDict, annots: PdfValue[], resolve: (a: PdfValue) => PdfDict | undefined) => PdfDict | undefined,
): Objects {
  const resolve = (v: PdfValue | undefined): PdfValue | undefined => {
    const key = referenced(v);
    return key ? objects[key]?.value : v;
  };
  const changed: Objects = {};
  for (const [key, object] of Object.entries(objects)) {
    const page = asDict(object.value);
    if (page?.['/Type'] !== '/Page') continue;
    const annots = resolve(page['/Annots']);
    const next = change(page, Array.isArray(annots) ? annots : [], (a) => asDict(resolve(a)));
    if (next) changed[key] = { value: next };
  }
  return changed;
}

/** The names of a PDF's form fields, as qpdf reads them (each once, however many widgets it has). */
export async function fieldNames(path: string, ctx: ToolContext): Promise<string[]> {
  const json = await qpdf(['--json=2', '--json-key=acroform', path], ctx);
  const { acroform } = JSON.parse(json) as { acroform: { fields: { fullname: string }[] } };
  return [...new Set(acroform.fields.map((f) => f.fullname))];
}
