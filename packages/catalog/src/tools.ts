import { z } from 'zod';
import { keepsEverything, keepsStreams, makesPages, notPaged } from './checks.ts';
import { compressionLevels, type CompressionLevel } from './compression.ts';
import { formValues } from './form-values.ts';
import { namesRedactions, redactionBoxes, redactionRegex, redactionTerms } from './redaction.ts';
import type { FileKind } from './kinds.ts';
import {
  boolField,
  cropMargin,
  imagePageSize,
  noOptions,
  ocrLanguage,
  pagePlan,
  pageRanges,
  printOptions,
  protectOptions,
  readingOcr,
} from './options.ts';
import { signOptions } from './sign-options.ts';
import { defineTool, type ServiceName, type Tool } from './tool-definition.ts';

const one = (...kinds: FileKind[]) => ({ kinds, min: 1, max: 1 });
const onePdf = one('pdf');
/** The images the image service decodes (AVIF by sharp's libheif with AOM; HEIC it cannot read). */
const images = ['jpeg', 'png', 'bmp', 'gif', 'webp', 'tiff', 'avif'] as const satisfies FileKind[];
/** Enough for a person, bounded so that one request cannot hold a service for long. */
const maxFiles = 50;

/** The one list of tools: the site, the API, the forms and the services all follow from it. */
const definitions = [
  defineTool({
    id: 'jpg-to-pdf',
    aliases: [],
    keywords: ['image', 'photo', 'picture', 'jpeg', 'png', 'scan'],
    name: 'JPG to PDF',
    description: 'Turn JPG photos into a PDF, one page each (PNG, WebP, TIFF and AVIF too).',
    icon: '🖼️',
    category: 'Convert',
    usage: 39210,
    service: 'image',
    input: { kinds: images, min: 1, max: maxFiles },
    output: 'pdf',
    checks: { pages: 'per-file' },
    options: z.object({ pageSize: imagePageSize }),
  }),
  defineTool({
    id: 'pdf-to-text',
    aliases: [],
    keywords: ['txt', 'markdown', 'copy text', 'extract text', 'words'],
    name: 'PDF to Text',
    description: 'Extract the text of a PDF as plain text or Markdown.',
    icon: '📝',
    category: 'Extract',
    usage: 10234,
    service: 'pdf-extract',
    ocr: 'scans',
    input: onePdf,
    output: { option: 'format', kinds: { txt: 'txt', md: 'md' } },
    checks: notPaged,
    options: z.object({ format: z.enum(['txt', 'md']).default('txt'), ...readingOcr }),
  }),
  defineTool({
    id: 'word-to-pdf',
    aliases: [],
    keywords: ['docx', 'doc', 'odt', 'rtf', 'document', 'office'],
    name: 'Word to PDF',
    description: 'Convert Word, OpenDocument and RTF documents to PDF.',
    icon: '📄',
    category: 'Convert',
    usage: 25100,
    service: 'office',
    input: one('doc', 'docx', 'odt', 'rtf'),
    output: 'pdf',
    checks: makesPages,
    options: noOptions,
  }),
  defineTool({
    id: 'excel-to-pdf',
    aliases: [],
    keywords: ['xlsx', 'xls', 'spreadsheet', 'sheet', 'csv', 'ods'],
    name: 'Excel to PDF',
    description: 'Convert spreadsheets to PDF.',
    icon: '📊',
    category: 'Convert',
    usage: 19400,
    service: 'office',
    input: one('xls', 'xlsx', 'ods', 'csv'),
    output: 'pdf',
    checks: makesPages,
    options: noOptions,
  }),
  defineTool({
    id: 'ppt-to-pdf',
    aliases: [],
    keywords: ['powerpoint', 'pptx', 'slides', 'presentation', 'odp'],
    name: 'PowerPoint to PDF',
    description: 'Convert presentations to PDF.',
    icon: '📽️',
    category: 'Convert',
    usage: 14600,
    service: 'office',
    input: one('ppt', 'pptx', 'ppsx', 'odp'),
    output: 'pdf',
    checks: makesPages,
    options: noOptions,
  }),
  defineTool({
    id: 'html-to-pdf',
    aliases: [],
    keywords: ['web page', 'website', 'htm'],
    name: 'HTML to PDF',
    description: 'Print a web page file, or a zip of a page and its assets, to PDF.',
    icon: '🌐',
    category: 'Convert',
    usage: 11800,
    service: 'renderer',
    input: one('html', 'html-zip'),
    output: 'pdf',
    checks: makesPages,
    options: printOptions,
  }),
  defineTool({
    id: 'pdf-to-word',
    aliases: [],
    keywords: ['docx', 'document', 'editable', 'edit text'],
    name: 'PDF to Word',
    description: 'Turn a PDF into an editable Word document.',
    icon: '📃',
    category: 'Extract',
    usage: 17200,
    service: 'pdf-extract',
    ocr: 'scans',
    input: onePdf,
    output: 'docx',
    checks: notPaged,
    options: z.object(readingOcr),
  }),
  defineTool({
    id: 'pdf-to-excel',
    aliases: [],
    keywords: ['xlsx', 'spreadsheet', 'table', 'csv'],
    name: 'PDF to Excel',
    description: 'Pull the tables of a PDF into a spreadsheet.',
    icon: '📈',
    category: 'Extract',
    usage: 13800,
    service: 'pdf-extract',
    ocr: 'scans',
    input: onePdf,
    output: 'xlsx',
    checks: notPaged,
    options: z.object(readingOcr),
  }),
  defineTool({
    id: 'pdf-to-ppt',
    aliases: [],
    keywords: ['powerpoint', 'pptx', 'slides', 'presentation'],
    name: 'PDF to PowerPoint',
    description: 'Turn each page of a PDF into an editable slide.',
    icon: '📑',
    category: 'Extract',
    usage: 11400,
    service: 'pdf-extract',
    ocr: 'scans',
    input: onePdf,
    output: 'pptx',
    checks: notPaged,
    options: z.object(readingOcr),
  }),
  defineTool({
    id: 'pdf-compress',
    aliases: [],
    keywords: ['reduce', 'shrink', 'smaller', 'size', 'optimize', 'optimise'],
    name: 'Compress PDF',
    description: 'Make a PDF smaller while keeping it readable.',
    icon: '🗜️',
    category: 'Edit',
    usage: 28400,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: keepsEverything,
    options: z.object({
      level: z.enum(Object.keys(compressionLevels) as [CompressionLevel, ...CompressionLevel[]]).default('recommended'),
    }),
  }),
  defineTool({
    id: 'pdf-merge',
    aliases: [],
    keywords: ['combine', 'join', 'append', 'together', 'concatenate'],
    name: 'Merge PDF',
    description: 'Join several PDFs into one, in the order you choose.',
    icon: '🔗',
    category: 'Edit',
    usage: 19210,
    service: 'pdf-editor',
    input: { kinds: ['pdf'], min: 2, max: maxFiles },
    output: 'pdf',
    checks: { pages: 'sum', text: 'kept', pixels: true, streams: 'copied' },
    options: noOptions,
  }),
  defineTool({
    id: 'compare-pdf',
    aliases: ['pdf-compare', 'diff-pdf'],
    keywords: ['compare', 'diff', 'difference', 'changes', 'versions', 'redline'],
    name: 'Compare PDF',
    description: 'See what changed between two versions of a PDF: the words removed, added and changed, page by page.',
    icon: '🔍',
    category: 'Utility',
    usage: 0,
    service: 'pdf-editor',
    input: { kinds: ['pdf'], min: 2, max: 2 },
    output: 'pdf',
    checks: { pages: 'some', pixels: true },
    options: z.object({ compareBy: z.enum(['words', 'looks']).default('words') }),
  }),
  defineTool({
    id: 'pdf-split',
    aliases: [],
    keywords: ['separate', 'divide', 'extract pages', 'cut'],
    name: 'Split PDF',
    description: 'Split a PDF into single pages or the ranges you choose.',
    icon: '✂️',
    category: 'Edit',
    usage: 14980,
    service: 'pdf-editor',
    input: onePdf,
    output: 'zip',
    checks: { pages: 'per-range', text: 'kept', pixels: true, streams: 'copied' },
    options: z.object({ ranges: pageRanges('Ranges').optional() }),
  }),
  defineTool({
    id: 'pdf-unlock',
    aliases: [],
    keywords: ['remove password', 'decrypt', 'unprotect', 'unsecure'],
    name: 'Unlock PDF',
    description: 'Remove the password and restrictions from a PDF you may open.',
    icon: '🔓',
    category: 'Edit',
    usage: 8900,
    service: 'pdf-editor',
    input: onePdf,
    protectedInput: true,
    output: 'pdf',
    checks: keepsStreams,
    options: noOptions,
  }),
  defineTool({
    id: 'image-to-pdf',
    aliases: [],
    keywords: ['images', 'png', 'bmp', 'gif', 'webp', 'tiff', 'photo', 'picture'],
    name: 'Image to PDF',
    description: 'Turn PNG, WebP, TIFF, AVIF, GIF, BMP and JPG images into a PDF, one page each.',
    icon: '🏞️',
    category: 'Convert',
    usage: 6200,
    service: 'image',
    input: { kinds: images, min: 1, max: maxFiles },
    output: 'pdf',
    checks: { pages: 'per-file' },
    options: z.object({ pageSize: imagePageSize }),
  }),
  defineTool({
    id: 'pdf-page-remove',
    aliases: [],
    keywords: ['delete pages', 'remove pages', 'delete'],
    name: 'Remove PDF Pages',
    description: 'Delete the pages you do not need from a PDF.',
    icon: '🗑️',
    category: 'Edit',
    usage: 4800,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: { pages: 'kept', text: 'kept', pixels: true, streams: 'copied' },
    options: z.object({ pages: pageRanges('Pages') }),
  }),
  defineTool({
    id: 'pdf-metadata-cleaner',
    aliases: [],
    keywords: ['metadata', 'privacy', 'author', 'properties', 'anonymize', 'clean'],
    name: 'PDF Metadata Cleaner',
    description: 'Remove the author, software, dates and other hidden details from a PDF.',
    icon: '🧹',
    category: 'Security',
    usage: 2100,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: keepsStreams,
    options: noOptions,
  }),
  defineTool({
    id: 'pdf-to-images',
    aliases: [],
    keywords: ['image', 'jpg', 'png', 'pictures', 'photos'],
    name: 'PDF to Images',
    description: 'Save every page of a PDF as an image.',
    icon: '🖼️',
    category: 'Extract',
    usage: 3300,
    service: 'image',
    input: onePdf,
    output: 'zip',
    checks: { pages: 'per-page' },
    options: z.object({
      format: z.enum(['png', 'jpg']).default('png'),
      dpi: z.coerce.number().int().min(72).max(300).default(150),
    }),
  }),
  defineTool({
    id: 'add-watermark',
    aliases: ['watermark-pdf'],
    keywords: ['stamp', 'confidential', 'draft', 'mark'],
    name: 'Add Watermark',
    description: 'Stamp text across every page of a PDF.',
    icon: '💧',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: { pages: 'same', text: 'added', pixels: true },
    options: z.object({
      text: z.string().trim().min(1).max(100).default('CONFIDENTIAL'),
      opacity: z.coerce.number().min(0.05).max(1).default(0.3),
      position: z.enum(['center', 'diagonal']).default('diagonal'),
    }),
  }),
  defineTool({
    id: 'rotate-pdf',
    aliases: [],
    keywords: ['turn', 'flip', 'orientation', 'landscape', 'upside down'],
    name: 'Rotate PDF',
    description: 'Turn the pages of a PDF the right way up.',
    icon: '🔄',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: keepsStreams,
    options: z.object({
      angle: z.enum(['90', '180', '270']).default('90').transform(Number),
      pages: pageRanges('Pages').optional(),
    }),
  }),
  defineTool({
    id: 'pdf-from-url',
    aliases: [],
    keywords: ['url', 'link', 'website', 'web page', 'address'],
    name: 'Web Page to PDF',
    description: 'Save the page at a web address as a PDF.',
    icon: '🔗',
    category: 'Utility',
    usage: 0,
    service: 'renderer',
    input: { url: true },
    output: 'pdf',
    checks: makesPages,
    options: printOptions,
  }),
  defineTool({
    id: 'screenshot-to-pdf',
    aliases: [],
    keywords: ['capture', 'screen', 'website', 'url', 'web page'],
    name: 'Screenshot to PDF',
    description: 'Capture a web page as it looks on screen, whole, into a PDF.',
    icon: '📸',
    category: 'Utility',
    usage: 0,
    service: 'renderer',
    input: { url: true },
    output: 'pdf',
    checks: makesPages,
    options: z.object({ width: z.coerce.number().int().min(320).max(3840).default(1280) }),
  }),
  defineTool({
    id: 'pdf-to-html',
    aliases: [],
    keywords: ['web page', 'website', 'html', 'browser'],
    name: 'PDF to HTML',
    description: 'Turn a PDF into one web page that keeps its text and images.',
    icon: '🧾',
    category: 'Preview',
    usage: 0,
    service: 'pdf-extract',
    ocr: 'scans',
    input: onePdf,
    output: 'html',
    checks: notPaged,
    options: z.object(readingOcr),
  }),
  defineTool({
    id: 'pdf-ocr',
    aliases: [],
    keywords: ['ocr', 'scan', 'scanned', 'searchable', 'recognize text', 'text recognition'],
    name: 'OCR PDF',
    description: 'Make a scanned PDF or photo of a page searchable, with text you can select and copy.',
    icon: '🔍',
    category: 'Convert',
    usage: 0,
    service: 'pdf-extract',
    ocr: 'always',
    input: one('pdf', 'jpeg', 'png', 'tiff'),
    output: 'pdf',
    // Not text 'kept': redo replaces an earlier OCR layer's words by design. The tool checks its text itself.
    checks: { pages: 'same', pixels: true },
    options: z.object({
      language: ocrLanguage,
      deskew: boolField(false),
      rotate: boolField(false),
      existingText: z.enum(['skip', 'redo']).default('skip'),
      pdfa: boolField(false),
    }),
  }),
  defineTool({
    id: 'protect-pdf',
    aliases: [],
    keywords: ['password', 'encrypt', 'lock', 'secure', 'permissions'],
    name: 'Protect PDF',
    description: 'Lock a PDF with a password, and choose what people who open it may do.',
    icon: '🔒',
    category: 'Security',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: {
      ...keepsStreams,
      encrypted: {
        password: 'userPassword',
        ownerPassword: 'ownerPassword',
        permissions: {
          print: 'allowPrint',
          copy: 'allowCopy',
          modify: 'allowModify',
          annotate: 'allowAnnotate',
          fillForms: 'allowFillForms',
        },
      },
    },
    options: protectOptions,
  }),
  defineTool({
    id: 'repair-pdf',
    aliases: [],
    keywords: ['fix', 'broken', 'corrupt', 'damaged', 'recover'],
    name: 'Repair PDF',
    description: 'Fix a damaged PDF so that it opens again, with every page and word that can be saved.',
    icon: '🩹',
    category: 'Utility',
    usage: 0,
    service: 'pdf-editor',
    input: { ...onePdf, damaged: true },
    output: 'pdf',
    checks: { pages: 'recovered', text: 'kept', pixels: true, opens: 'clean' },
    options: noOptions,
  }),
  defineTool({
    id: 'add-page-numbers',
    aliases: [],
    keywords: ['numbering', 'pagination', 'page number', 'footer'],
    name: 'Add Page Numbers',
    description: 'Number the pages of a PDF, in the corner and style you choose.',
    icon: '🔢',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: keepsEverything,
    options: z.object({
      position: z
        .enum(['top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right'])
        .default('bottom-center'),
      format: z.enum(['number', 'page-of-total', 'roman-lower', 'roman-upper']).default('number'),
      start: z.coerce.number().int().min(1).max(3999).default(1),
      fontSize: z.coerce.number().min(4).max(72).default(11),
      margin: z.coerce.number().min(0).max(100).default(10),
      direction: z.enum(['ltr', 'rtl']).default('ltr'),
      pages: pageRanges('Pages').optional(),
    }),
  }),
  defineTool({
    id: 'crop-pdf',
    aliases: [],
    keywords: ['trim', 'margins', 'cut'],
    name: 'Crop PDF',
    description: 'Trim the margins of PDF pages, by hand or automatically.',
    icon: '✂️',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: keepsEverything,
    options: z.object({
      mode: z.enum(['trim', 'margins', 'box']).default('trim'),
      unit: z.enum(['mm', 'pt']).default('mm'),
      top: cropMargin,
      right: cropMargin,
      bottom: cropMargin,
      left: cropMargin,
      box: z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){3}$/, {
          message: 'it must be four numbers: left, top, width and height',
        })
        .optional(),
      pages: pageRanges('Pages').optional(),
    }),
  }),
  defineTool({
    id: 'organize-pdf',
    aliases: [],
    keywords: ['reorder', 'rearrange', 'sort pages', 'move pages', 'duplicate', 'blank page'],
    name: 'Organize PDF',
    description: 'Reorder, rotate, duplicate, delete and add blank pages of a PDF in one go, from one page plan.',
    icon: '🗂️',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: { pages: 'planned', text: 'kept', pixels: true, streams: 'copied' },
    options: z.object({ plan: pagePlan }),
  }),
  defineTool({
    id: 'markdown-to-pdf',
    aliases: [],
    keywords: ['md', 'readme'],
    name: 'Markdown to PDF',
    description: 'Print a Markdown file, or a zip of one with its images, as a clean PDF document.',
    icon: '📝',
    category: 'Convert',
    usage: 0,
    service: 'renderer',
    input: one('md', 'md-zip'),
    output: 'pdf',
    checks: makesPages,
    options: printOptions,
  }),
  defineTool({
    id: 'extract-images',
    aliases: [],
    keywords: ['images', 'photos', 'pictures', 'save images'],
    name: 'Extract Images from PDF',
    description: 'Save every image embedded in a PDF as a file of its own: photos as JPEG, the rest as PNG.',
    icon: '🏞️',
    category: 'Extract',
    usage: 0,
    service: 'image',
    input: onePdf,
    output: 'zip',
    checks: notPaged,
    options: noOptions,
  }),
  defineTool({
    id: 'pdf-to-pdfa',
    aliases: [],
    keywords: ['pdf/a', 'archive', 'archiving', 'long-term'],
    name: 'PDF to PDF/A',
    description: 'Make a PDF/A copy of a PDF for long-term archiving, with its fonts embedded.',
    icon: '🗄️',
    category: 'Convert',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: { ...keepsEverything, archival: true },
    options: z.object({ conformance: z.enum(['2b', '1b', '3b']).default('2b') }),
  }),
  defineTool({
    id: 'fill-pdf-form',
    aliases: [],
    keywords: ['form', 'fill', 'fill in', 'fields', 'acroform'],
    name: 'Fill PDF Form',
    description: 'Fill in the fields of a PDF form, and flatten it if you like, so that no one can change them.',
    icon: '🖊️',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    // Not text 'kept': a field's new value replaces its old one. The tool checks each field's value itself.
    checks: { pages: 'same', pixels: true },
    options: z.object({ values: formValues, flatten: boolField(false) }),
  }),
  defineTool({
    id: 'sign-pdf',
    aliases: [],
    keywords: ['signature', 'sign', 'e-sign', 'autograph', 'initials', 'certificate', 'digital signature'],
    name: 'Sign PDF',
    description:
      'Sign a PDF: draw, type or upload your signature and place it on the page, or sign it digitally with your own certificate.',
    icon: '✍️',
    category: 'Security',
    usage: 0,
    service: 'pdf-editor',
    // The PDF, then a signature image, a certificate or both, in any order (the tool tells them by kind).
    input: { kinds: ['pdf', 'png', 'jpeg', 'p12'], min: 1, max: 3 },
    output: 'pdf',
    checks: keepsEverything,
    options: signOptions,
  }),
  defineTool({
    id: 'flatten-pdf',
    aliases: [],
    keywords: ['flatten', 'form', 'annotations', 'burn in'],
    name: 'Flatten PDF',
    description:
      'Burn the form fields and comments of a PDF into its pages, as they look, so that they can no longer be changed.',
    icon: '🧱',
    category: 'Edit',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    checks: keepsEverything,
    options: noOptions,
  }),
  defineTool({
    id: 'redact-pdf',
    aliases: [],
    keywords: ['redact', 'black out', 'censor', 'hide text', 'remove text', 'sensitive', 'privacy', 'gdpr'],
    name: 'Redact PDF',
    description:
      'Remove words, e-mail addresses, phone numbers and the areas you draw from a PDF for good: the text is deleted, not just covered.',
    icon: '⬛',
    category: 'Security',
    usage: 0,
    service: 'pdf-editor',
    input: onePdf,
    output: 'pdf',
    // Not text 'kept': words are removed on purpose. The tool reads the result back to check that none is left.
    checks: { pages: 'same', pixels: true },
    options: z
      .object({
        terms: redactionTerms.optional(),
        emails: boolField(false),
        phones: boolField(false),
        regex: redactionRegex.optional(),
        matchCase: boolField(false),
        boxes: redactionBoxes.optional(),
        cleanMetadata: boolField(true),
      })
      .superRefine((o, ctx) => {
        if (!namesRedactions(o))
          ctx.addIssue({
            code: 'custom',
            path: ['terms'],
            message: 'say what to remove: words, e-mail addresses, phone numbers, a regular expression or boxes',
          });
      }),
  }),
] as const;

export const tools: readonly Tool[] = definitions;
export type ToolId = (typeof definitions)[number]['id'];
/** A tool's options as its schema parses them: what its run function gets. */
export type ToolOptions<Id extends ToolId> = z.output<Extract<(typeof definitions)[number], { id: Id }>['options']>;

const byId = new Map<string, Tool>();
for (const tool of tools) {
  for (const key of [tool.id, ...tool.aliases]) byId.set(key, tool);
}

/** The tool an id or alias names, or undefined. */
export function findTool(idOrAlias: string): Tool | undefined {
  return byId.get(idOrAlias);
}

export function toolsOf(service: ServiceName): Tool[] {
  return tools.filter((t) => t.service === service);
}

export function takesUrl(tool: Tool): boolean {
  return 'url' in tool.input;
}

/** Whether the tool reads PDFs (which may be encrypted). */
function readsPdf(tool: Tool): boolean {
  return 'kinds' in tool.input && tool.input.kinds.includes('pdf');
}

/** Whether the tool reads office documents, which may be password-protected too. */
export function readsOffice(tool: Tool): boolean {
  return tool.service === 'office';
}

/**
 * Whether the tool takes a `password`: for an encrypted PDF, or a protected Word, Excel or PowerPoint file.
 * The one answer for the upload check, the API's forms and OpenAPI, workflows and the site's password field.
 */
export function takesPassword(tool: Tool): boolean {
  return readsPdf(tool) || readsOffice(tool);
}

/** What a tool makes with these options (as its schema parsed them). */
export function outputKind(tool: Tool, options: Record<string, unknown>): FileKind {
  if (typeof tool.output === 'string') return tool.output;
  const { option, kinds } = tool.output;
  const value = options[option];
  if (typeof value === 'string' && Object.hasOwn(kinds, value)) return kinds[value]!;
  throw new Error(`${tool.id}: no output kind for ${option}=${String(value)}`);
}

/** What a tool makes with its default options (as in a workflow, where steps take no options). */
export function defaultOutputKind(tool: Tool): FileKind {
  return typeof tool.output === 'string' ? tool.output : outputKind(tool, tool.options.parse({}));
}
