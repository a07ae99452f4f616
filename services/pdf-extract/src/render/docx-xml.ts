/**
 * docx's components written to XML one at a time, as docx's packer writes the whole document (no
 * indentation), so that a long document's body is held as text, page by page, not as one tree of
 * components and then one of their XML objects.
 */
import type { Document, XmlComponent } from 'docx';

type Xmlable = Record<string, unknown>;

const escapes: Record<string, string> = { '&': '&amp;', '"': '&quot;', "'": '&apos;', '<': '&lt;', '>': '&gt;' };
// Control characters XML 1.0 cannot hold are dropped, as docx drops them.
const escape = (v: unknown) =>
  // eslint-disable-next-line no-control-regex
  typeof v === 'string' ? v.replace(/[&"'<>\x00-\x08\x0B\x0C\x0E-\x1F]/g, (c) => escapes[c] ?? '') : String(v);

const attributes = (attr: unknown) =>
  Object.entries(attr as Record<string, unknown>)
    .map(([k, v]) => ` ${k}="${escape(v)}"`)
    .join('');

/** One of docx's XML objects (`{ "w:p": [{ _attr: {...} }, ...] }`) as XML text. */
function xmlOf(node: Xmlable): string {
  const name = Object.keys(node)[0]!;
  const value = node[name];
  if (value === null || typeof value !== 'object')
    return `<${name}>${value === undefined ? '' : escape(value)}</${name}>`;
  const { _attr } = value as { _attr?: unknown };
  let attrs = _attr ? attributes(_attr) : '';
  if (!Array.isArray(value)) return `<${name}${attrs}/>`;
  let content = '';
  for (const child of value as unknown[]) {
    if (child !== null && typeof child === 'object') {
      const c = child as Xmlable;
      if (Object.keys(c)[0] === '_attr') attrs += attributes(c._attr);
      else content += xmlOf(c);
    } else content = escape(child);
  }
  return `<${name}${attrs}>${content}</${name}>`;
}

/** Writes components of `document`'s body as XML, registering their images and lists with it as docx would. */
export function bodyWriter(document: Document): (component: XmlComponent) => string {
  const file = document as unknown as { Document: unknown };
  const context = { file, viewWrapper: file.Document, stack: [] } as unknown as Parameters<
    XmlComponent['prepForXml']
  >[0];
  return (component) => {
    const xml = component.prepForXml(context);
    if (!xml) throw new Error('docx component without XML');
    return xmlOf(xml as Xmlable);
  };
}
