import type { Category } from './tool-definition.ts';
import type { ToolId } from './tools.ts';

/** The header's tool menus. The watermark tool appears under its canonical id. */
export const headerMenus = [
  {
    group: 'Convert',
    tools: [
      'jpg-to-pdf',
      'word-to-pdf',
      'excel-to-pdf',
      'ppt-to-pdf',
      'html-to-pdf',
      'pdf-ocr',
      'markdown-to-pdf',
      'pdf-to-pdfa',
    ],
  },
  {
    group: 'Extract',
    tools: ['pdf-to-word', 'pdf-to-excel', 'pdf-to-ppt', 'pdf-to-text', 'pdf-to-images', 'extract-images'],
  },
  {
    group: 'Edit',
    tools: [
      'pdf-merge',
      'pdf-split',
      'pdf-compress',
      'pdf-unlock',
      'add-watermark',
      'rotate-pdf',
      'pdf-page-remove',
      'add-page-numbers',
      'crop-pdf',
      'organize-pdf',
      'protect-pdf',
      'repair-pdf',
      'fill-pdf-form',
      'flatten-pdf',
    ],
  },
] as const satisfies readonly { group: Category; tools: readonly ToolId[] }[];

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
] as const satisfies readonly ToolId[];

/** Tools that cannot run without an option the visitor writes (a page plan, a password, a form's values). */
const needsAnOption = ['organize-pdf', 'protect-pdf', 'fill-pdf-form'] as const satisfies readonly ToolId[];

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
} as const;
