import { categories, type Category } from './tool-definition.ts';
import type { ToolId } from './tools.ts';

/**
 * The spec's header menus, in the spec's order. The site shows each with the rest of its category's tools
 * after these (see {@link menusOf}), so a new tool joins its menu without an edit here.
 */
export const headerMenus = [
  { group: 'Convert', tools: ['jpg-to-pdf', 'word-to-pdf', 'excel-to-pdf', 'ppt-to-pdf', 'html-to-pdf'] },
  { group: 'Extract', tools: ['pdf-to-word', 'pdf-to-excel', 'pdf-to-ppt', 'pdf-to-text', 'pdf-to-images'] },
  {
    group: 'Edit',
    tools: ['pdf-merge', 'pdf-split', 'pdf-compress', 'pdf-unlock', 'add-watermark', 'rotate-pdf', 'pdf-page-remove'],
  },
] as const satisfies readonly { group: Category; tools: readonly ToolId[] }[];

/** The menu a category's tools are listed in: its own when the spec has one, else "More". */
export type MenuGroup = (typeof headerMenus)[number]['group'] | 'More';

/**
 * Every tool in one menu: the spec's entries first, then each category's other tools in catalog order;
 * the categories without a menu of their own (Security, Utility, Preview) share a last menu, "More".
 */
export function menusOf<T extends { id: string; category: Category }>(
  catalog: readonly T[],
): { group: MenuGroup; tools: T[] }[] {
  const byId = new Map(catalog.map((t) => [t.id, t]));
  const menus = headerMenus.map(({ group, tools: listed }) => ({
    group: group as MenuGroup,
    tools: [
      ...listed.flatMap((id) => byId.get(id) ?? []),
      ...catalog.filter((t) => t.category === group && !(listed as readonly string[]).includes(t.id)),
    ],
  }));
  const shown = new Set(menus.flatMap((m) => m.tools.map((t) => t.id)));
  const more = categories.flatMap((c) => catalog.filter((t) => t.category === c && !shown.has(t.id)));
  return more.length > 0 ? [...menus, { group: 'More', tools: more }] : menus;
}

/** Footer link columns: tools by id, other links by route. */
export const footerColumns = {
  tools: ['jpg-to-pdf', 'pdf-merge', 'pdf-compress', 'pdf-to-word', 'html-to-pdf', 'pdf-ocr'],
  company: [
    { label: 'Blog', path: '/blog' },
    { label: 'FAQ', path: '/faq' },
    { label: 'Contact', path: '/contact' },
    { label: 'Privacy Policy', path: '/privacy-policy' },
    { label: 'Terms & Conditions', path: '/terms' },
  ],
  account: [
    { label: 'Login', path: '/login' },
    { label: 'Sign Up', path: '/signup' },
    { label: 'Dashboard', path: '/account' },
    { label: 'Workflow Builder', path: '/workflow-builder' },
  ],
} as const satisfies { tools: readonly ToolId[]; company: unknown; account: unknown };

/** The header search finds the first of these whose id contains the typed text. */
export const searchTools = [
  'jpg-to-pdf',
  'word-to-pdf',
  'excel-to-pdf',
  'ppt-to-pdf',
  'html-to-pdf',
  'pdf-to-word',
  'pdf-to-excel',
  'pdf-to-ppt',
  'pdf-merge',
  'pdf-split',
  'pdf-compress',
  'pdf-unlock',
  'pdf-ocr',
  'add-page-numbers',
  'crop-pdf',
  'extract-images',
  'pdf-to-pdfa',
  'organize-pdf',
  'protect-pdf',
  'repair-pdf',
  'markdown-to-pdf',
  'fill-pdf-form',
  'flatten-pdf',
  'sign-pdf',
  'redact-pdf',
] as const satisfies readonly ToolId[];

/**
 * Tools that cannot run without an option the visitor writes (a page plan, a password, a form's values,
 * what to redact) or a second file.
 */
const needsAnOption = [
  'organize-pdf',
  'protect-pdf',
  'fill-pdf-form',
  'sign-pdf',
  'redact-pdf',
] as const satisfies readonly ToolId[];

/** The workflow builder offers these: it sets no options, so not the tools that need one. */
export const workflowTools = searchTools.filter(
  (id): id is Exclude<(typeof searchTools)[number], (typeof needsAnOption)[number]> =>
    !(needsAnOption as readonly string[]).includes(id),
);

export const blogCategories = ['All', 'Convert', 'Extract', 'Edit'] as const;

/** The site's numbers, and the defaults of the settings every process shares. */
export const constants = {
  blogPageSize: 12,
  homeBlogPreview: 3,
  initialProgress: 10,
  /** Default upload limit; the `UPLOAD_LIMIT_MB` setting changes it everywhere at once. */
  uploadLimitMb: 100,
  /** How long a result stays downloadable by default; `RESULT_TTL_SECONDS` changes it. */
  resultTtlSeconds: 3600,
  /** Tool calls a client may make a minute, counted by nginx and by each gateway; `RATE_LIMIT_PER_MINUTE` changes it. */
  rateLimitPerMinute: 120,
  /** Files a single-file tool (or a workflow) takes in one batch job, each processed on its own. */
  batchMaxFiles: 20,
  /**
   * The time a page read by OCR is given: a dense 300 dpi page takes OCRmyPDF about 4 s on two cores
   * (bench/ocr.ts). A call reads as many pages as its time allows at this pace (30 in the 120 s of a
   * tool call), and a queued job adds this much time per page for the tools that may OCR.
   */
  ocrPageMs: 4000,
} as const;
