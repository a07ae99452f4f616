/** The kinds of file Quire reads and writes. Inputs are judged by content; this is what they are called. */
export const fileKinds = {
  pdf: { mime: 'application/pdf', ext: 'pdf', label: 'PDF' },
  jpeg: { mime: 'image/jpeg', ext: 'jpg', label: 'JPEG' },
  png: { mime: 'image/png', ext: 'png', label: 'PNG' },
  bmp: { mime: 'image/bmp', ext: 'bmp', label: 'BMP' },
  gif: { mime: 'image/gif', ext: 'gif', label: 'GIF' },
  webp: { mime: 'image/webp', ext: 'webp', label: 'WebP' },
  tiff: { mime: 'image/tiff', ext: 'tif', label: 'TIFF' },
  avif: { mime: 'image/avif', ext: 'avif', label: 'AVIF' },
  doc: { mime: 'application/msword', ext: 'doc', label: 'Word 97-2003' },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ext: 'docx',
    label: 'Word',
  },
  odt: { mime: 'application/vnd.oasis.opendocument.text', ext: 'odt', label: 'OpenDocument text' },
  rtf: { mime: 'application/rtf', ext: 'rtf', label: 'RTF' },
  xls: { mime: 'application/vnd.ms-excel', ext: 'xls', label: 'Excel 97-2003' },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ext: 'xlsx',
    label: 'Excel',
  },
  ods: { mime: 'application/vnd.oasis.opendocument.spreadsheet', ext: 'ods', label: 'OpenDocument spreadsheet' },
  csv: { mime: 'text/csv', ext: 'csv', label: 'CSV' },
  ppt: { mime: 'application/vnd.ms-powerpoint', ext: 'ppt', label: 'PowerPoint 97-2003' },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ext: 'pptx',
    label: 'PowerPoint',
  },
  ppsx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
    ext: 'ppsx',
    label: 'PowerPoint show',
  },
  odp: { mime: 'application/vnd.oasis.opendocument.presentation', ext: 'odp', label: 'OpenDocument presentation' },
  html: { mime: 'text/html', ext: 'html', label: 'HTML' },
  /** A zip holding index.html and its assets. */
  'html-zip': { mime: 'application/zip', ext: 'zip', label: 'ZIP with index.html' },
  /** A zip holding one Markdown file and its images. */
  'md-zip': { mime: 'application/zip', ext: 'zip', label: 'ZIP with a Markdown file' },
  /** Any other zip, such as the pages of a split. */
  zip: { mime: 'application/zip', ext: 'zip', label: 'ZIP' },
  txt: { mime: 'text/plain; charset=utf-8', ext: 'txt', label: 'Text' },
  md: { mime: 'text/markdown; charset=utf-8', ext: 'md', label: 'Markdown' },
  /** A certificate with its private key (PKCS#12, .p12 or .pfx), read only to sign with it. */
  p12: { mime: 'application/x-pkcs12', ext: 'p12', label: 'PKCS#12 certificate' },
} as const;

export type FileKind = keyof typeof fileKinds;

export function isFileKind(value: string): value is FileKind {
  return Object.hasOwn(fileKinds, value);
}

/** The kind a file name's extension suggests, for naming results; never used to judge an upload. */
export function kindOfExtension(ext: string): FileKind | undefined {
  const lower = ext.toLowerCase().replace(/^\./, '');
  if (lower === 'jpeg') return 'jpeg';
  if (lower === 'tiff') return 'tiff';
  if (lower === 'htm') return 'html';
  if (lower === 'pfx') return 'p12';
  return (Object.keys(fileKinds) as FileKind[]).find(
    (k) => fileKinds[k].ext === lower && k !== 'html-zip' && k !== 'md-zip',
  );
}
