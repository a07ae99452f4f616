import type { NewTool, ToolTemplate } from './template.ts';

/** A YAML string in single quotes, where a quote is written twice. */
const yaml = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The tool's guide in English (`frontend/content/blog/<id>-guide.md`): its front matter within the
 * lengths the blog's build accepts, and the steps, the option and the privacy note every guide has.
 */
export function guide(tool: NewTool, template: ToolTemplate, date: string): string {
  const { id, name, description } = tool;
  const { name: field, label, guide: about } = template.option;
  return `---
title: ${yaml(`How to Use ${name}`)}
meta: ${yaml(`${description} Free, with no account, and every result checked before you download it.`)}
summary: ${yaml(`${name} step by step: what to upload, the option it takes and what you get back.`)}
category: ${template.guideCategory}
relatedToolId: ${id}
date: ${date}
---

${description}

## Step by step

1. Open [${name}](/tools/${id}).
2. Drop ${template.takes} on the upload area, or click to choose.
3. Under the upload area, set the options if the defaults do not suit you.
4. Press **Convert** and watch the progress bar.
5. When **Success** appears, download ${template.makes} from the link.

## Options

- **${label}** (\`${field}\`): ${about}

## Privacy

There's no account to create. The result stays available for one hour by default, then it is deleted automatically. Nothing is kept.
`;
}

/** The guide's front matter fields against the blog's limits (frontend/app/blog/posts.server.ts). */
export function guideProblems(tool: NewTool): string[] {
  const problems: string[] = [];
  const title = `How to Use ${tool.name}`;
  const meta = `${tool.description} Free, with no account, and every result checked before you download it.`;
  if (title.length > 70) problems.push(`the guide's title "${title}" is over 70 characters: give a shorter --name`);
  if (meta.length > 160) problems.push(`the guide's meta text is over 160 characters: give a shorter --description`);
  return problems;
}
