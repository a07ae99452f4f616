/**
 * The .docx package of a long document, written without its body ever standing in memory whole: each
 * section's body goes to a file as it is made, and word/document.xml is streamed from those files
 * into the archive, which is itself written as it is made.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Document } from 'docx';
import { unzipSync } from 'fflate';
import { createZip } from '@quire/pdf';

/**
 * A section's body, item by item (a paragraph or a table as XML), kept in a file. Items are parted by
 * NUL, which XML text cannot hold (the writer drops it). The last item stays in memory: the section's
 * properties go into it when the document is put together.
 */
export class SectionBody {
  private readonly out: WriteStream;
  private held: string | undefined;

  constructor(readonly file: string) {
    this.out = createWriteStream(file);
    // A failed write (a full disk) is reported by the next add, or by close: never an unheard event.
    this.out.on('error', () => undefined);
  }

  async add(item: string): Promise<void> {
    if (this.out.errored) throw this.out.errored;
    if (this.held !== undefined && !this.out.write(`${this.held}\0`)) await once(this.out, 'drain');
    this.held = item;
  }

  get last(): string | undefined {
    return this.held;
  }

  async close(): Promise<void> {
    this.out.end();
    await finished(this.out);
  }

  /** The items in the file, in order. */
  async *items(): AsyncGenerator<string> {
    let carry = '';
    for await (const chunk of createReadStream(this.file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      const parts = (carry + (chunk as string)).split('\0');
      carry = parts.pop()!;
      yield* parts;
    }
  }
}

const imageRelationship = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

/**
 * Registers the images and lists the bodies refer to with the document, giving them the ids docx gives
 * them when it writes a whole document: call it before docx packs the rest.
 */
export function bodyIds(document: Document): Map<string, string> {
  const ids = new Map<string, string>();
  const relationships = document.Document.Relationships;
  const first = relationships.RelationshipCount + 1;
  document.Media.Entries.forEach(([key, { fileName }], i) => {
    relationships.addRelationship(first + i, imageRelationship, `media/${fileName}`);
    ids.set(key, `${first + i}`);
  });
  for (const { reference, instance, restartedListId, numId } of document.Numbering.ConcreteNumbering)
    ids.set(
      restartedListId === undefined ? `${reference}-${instance}` : `${reference}-restart ${restartedListId}`,
      `${numId}`,
    );
  return ids;
}

/**
 * word/document.xml: docx's own (`view`), each section's marker paragraph replaced by its body, and the
 * body's references to images and lists given their ids.
 */
export async function* documentXml(
  view: string,
  markers: string[],
  bodies: SectionBody[],
  ids: Map<string, string>,
): AsyncGenerator<string> {
  const withIds = (item: string) => item.replace(/\{([^{}<>"]+)\}/g, (all, key: string) => ids.get(key) ?? all);
  yield '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  let at = 0;
  for (const [i, marker] of markers.entries()) {
    const found = view.indexOf(marker, at);
    const from = view.lastIndexOf('<w:p>', found);
    const to = view.indexOf('</w:p>', found) + '</w:p>'.length;
    yield view.slice(at, from);
    at = to;
    const body = bodies[i];
    if (body) for await (const item of body.items()) yield withIds(item);
    // All but the last section end with a paragraph holding the section's properties: docx puts them
    // in the marker's, and they go to the body's last paragraph, where docx would have put them.
    const properties = /<w:sectPr[ >][\s\S]*<\/w:sectPr>/.exec(view.slice(from, to))?.[0];
    let last = body?.last === undefined ? undefined : withIds(body.last);
    if (properties && last === '<w:p/>') last = '<w:p></w:p>';
    if (properties && last?.startsWith('<w:p>'))
      last = last.startsWith('<w:p><w:pPr>')
        ? last.replace('</w:pPr>', `${properties}</w:pPr>`)
        : `<w:p><w:pPr>${properties}</w:pPr>${last.slice('<w:p>'.length)}`;
    else if (properties) last = `${last ?? ''}<w:p><w:pPr>${properties}</w:pPr></w:p>`;
    if (last) yield last;
  }
  yield view.slice(at);
}

/**
 * The archive at `path`: the entries of `packed` (docx's own package) in their order, `name` among
 * them streamed from `content`. Pictures are stored as they are: they are compressed already.
 */
export async function writePackage(
  packed: Uint8Array,
  path: string,
  name: string,
  content: AsyncIterable<string>,
): Promise<void> {
  const zip = createZip(path, { compress: true });
  for (const [entry, data] of Object.entries(unzipSync(packed))) {
    if (entry.endsWith('/')) continue;
    zip.add(entry === name ? utf8(content) : data, entry, { compress: !entry.startsWith('word/media/') });
  }
  await zip.close();
}

async function* utf8(texts: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  for await (const text of texts) yield Buffer.from(text);
}
