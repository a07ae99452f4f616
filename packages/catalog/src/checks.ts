/** What a protected PDF lets whoever opens it with the user password do; the owner password may do everything. */
export const pdfPermissions = ['print', 'copy', 'modify', 'annotate', 'fillForms'] as const;
export type PdfPermission = (typeof pdfPermissions)[number];

/**
 * A result that is a protected PDF: encrypted with AES-256 (PDF 2.0's R6), refused without a password,
 * opened with the one in the option `password` names (when that option is empty and an owner password
 * was given, it opens without one, its permissions still applying). Every other check is then made on it decrypted
 * with that password, as whoever opens it sees it.
 * - ownerPassword: the option holding the owner password, which must open it as owner when given.
 * - permissions: for each permission, the boolean option that says whether it is granted; a result that
 *   withholds any must not give the user password the owner's rights, which would lift them.
 */
export interface EncryptedResult {
  password: string;
  ownerPassword?: string;
  permissions?: Readonly<Record<PdfPermission, string>> & {
    /** Assembling (insert, delete, turn pages) on its own option; by default `modify` covers it. */
    readonly assemble?: string;
  };
}

/**
 * What a tool promises of every result, checked before the result is offered.
 * - pages: how the output's pages follow from the input's:
 *   `same` as the input; `sum` of all inputs in order; `kept` the input's less the `pages` option;
 *   `per-range` a zip with one PDF per range of the `ranges` option (every page by default);
 *   `per-page` a zip with one image per input page; `per-file` at least one page per input file;
 *   `some` at least one page; `none` the output is not paged; `planned` the pages the `plan` option
 *   lists (see page-plan.ts), in its order, its blank pages compared with nothing;
 *   `recovered` the pages a PDF reader (Poppler) shows of a damaged input, in order: all of them, or
 *   all those with something on them (a page a reader finds in a broken page tree may be nothing).
 * - text: `kept` every word of each mapped input page is still on its output page; `added` the same,
 *   and the tool's `text` option appears on every page.
 * - pixels: no output page is blank where its input page was not.
 * - streams: `copied` when the tool passes the input's page content and images on as they are (it
 *   turns, orders, picks or joins pages, encrypts them, or rewrites only the document's dictionaries):
 *   a long result's structure (cross-reference table, trailer, page tree) is then read whole and only
 *   its sampled pages' streams are decoded. By default every stream of the result is decoded
 *   (`qpdf --check`), as a tool that rewrote streams (compress, repair) needs.
 * - opens: `clean` when qpdf's full check must find nothing to warn about, nothing it had to repair
 *   to read the result (as a repaired file must); by default a warning is allowed.
 * - encrypted: the result is a protected PDF (see EncryptedResult).
 * - archival: the result shows what PDF/A asks that can be read from it: the PDF/A identification
 *   (pdfaid:part and conformance) in its XMP metadata, an output intent with an ICC profile, every
 *   font embedded, no encryption and no JavaScript.
 */
export interface ResultChecks {
  pages: 'same' | 'sum' | 'kept' | 'per-range' | 'per-page' | 'per-file' | 'some' | 'none' | 'planned' | 'recovered';
  text?: 'kept' | 'added';
  pixels?: boolean;
  streams?: 'copied';
  opens?: 'clean';
  encrypted?: EncryptedResult;
  archival?: boolean;
}

export const keepsEverything = { pages: 'same', text: 'kept', pixels: true } as const satisfies ResultChecks;
/** keepsEverything, of a tool that passes the input's streams on as they are. */
export const keepsStreams = { ...keepsEverything, streams: 'copied' } as const satisfies ResultChecks;
export const makesPages = { pages: 'some' } as const satisfies ResultChecks;
export const notPaged = { pages: 'none' } as const satisfies ResultChecks;
