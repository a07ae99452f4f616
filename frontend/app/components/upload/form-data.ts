import type { Tool } from '../../lib/tools.ts';

/** What the widget sends: the address or the files in their order, the options set or defaulted, a password. */
export function uploadForm(input: {
  url?: string;
  files: File[];
  fields: Tool['options'];
  options: Record<string, string>;
  password: string;
}): FormData {
  const form = new FormData();
  if (input.url !== undefined) form.append('url', input.url.trim());
  for (const file of input.files) form.append('file', file, file.name);
  for (const f of input.fields) {
    const value = input.options[f.name] ?? f.default;
    if (value !== undefined && value !== '') form.append(f.name, value);
  }
  if (input.password) form.append('password', input.password);
  return form;
}
