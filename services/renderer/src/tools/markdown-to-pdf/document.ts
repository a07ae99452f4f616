import { Marked } from 'marked';

const marked = new Marked({ gfm: true });

/**
 * Nothing but the upload's own files may load, and no script may run: raw HTML is part of Markdown
 * and is kept, but it prints only what it shows. The renderer's routes refuse the network besides.
 */
const policy = "default-src 'self' data:; script-src 'none'; object-src 'none'; style-src 'self' 'unsafe-inline'";

/** A plain, readable print style: body text, bordered tables, monospace code that wraps. */
const style = `
html { font: 11pt/1.55 "Noto Sans", "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #111; }
body { margin: 0; overflow-wrap: break-word; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.4em 0 0.5em; break-after: avoid; }
h1 { font-size: 1.9em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
h2 { font-size: 1.45em; border-bottom: 1px solid #e2e2e2; padding-bottom: 0.15em; }
h3 { font-size: 1.2em; }
body > :first-child { margin-top: 0; }
p, ul, ol, blockquote, pre, table { margin: 0 0 0.9em; }
a { color: #0645ad; text-decoration: none; }
img { max-width: 100%; }
blockquote { margin-left: 0; padding: 0 1em; border-left: 4px solid #ddd; color: #444; }
hr { border: 0; border-top: 1px solid #ccc; }
code, pre { font-family: "DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", monospace; font-size: 0.88em; }
code { background: #f3f3f3; padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: #f6f6f6; border: 1px solid #e0e0e0; padding: 0.7em 0.9em; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; font-size: 1em; }
table { border-collapse: collapse; max-width: 100%; }
th, td { border: 1px solid #999; padding: 0.3em 0.6em; vertical-align: top; }
th { background: #eee; }
thead { display: table-header-group; }
tr, img, pre { break-inside: avoid; }
input[type="checkbox"] { margin: 0 0.4em 0 0; }
`;

/**
 * A Markdown text (CommonMark with GitHub's tables, task lists and strikethrough) as a whole HTML
 * page. `base` is the folder the Markdown file sits in, so that its relative links and images
 * resolve as they would beside it.
 */
export function markdownPage(markdown: string, base = ''): string {
  const body = marked.parse(markdown.replace(/^\uFEFF/, ''), { async: false });
  const baseTag = base ? `<base href="/${encodeURI(base)}">` : '';
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
${baseTag}<style>${style}</style></head>
<body>${body}</body></html>`;
}
