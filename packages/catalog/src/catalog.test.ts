import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  blogCategories,
  checkFileCount,
  checkWorkflow,
  constants,
  errorCodes,
  expandPageRanges,
  defaultOutputKind,
  fileKinds,
  findTool,
  footerColumns,
  optionFields,
  pdfPermissions,
  headerMenus,
  menusOf,
  parseOptions,
  outputKind,
  parsePageRanges,
  pagesOf,
  searchTools,
  takesPassword,
  tools,
  workflowTools,
  type ToolOptions,
} from './index.ts';
import { siteTools } from './site-tools.ts';

const all = tools;

describe('the tool catalog', () => {
  it('holds the tools of the spec with their seed usage', () => {
    const seeds = Object.fromEntries(all.map((t) => [t.id, t.usage]));
    expect(seeds).toMatchObject({
      'jpg-to-pdf': 39210,
      'pdf-to-text': 10234,
      'pdf-compress': 28400,
      'pdf-merge': 19210,
      'add-watermark': 0,
      'pdf-to-html': 0,
    });
  });

  it('has unique ids and aliases, and every alias resolves to its tool', () => {
    const keys = all.flatMap((t) => [t.id, ...t.aliases]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(findTool('watermark-pdf')?.id).toBe('add-watermark');
    expect(findTool('add-watermark')?.id).toBe('add-watermark');
    expect(findTool('nope')).toBeUndefined();
    expect(findTool('__proto__')).toBeUndefined();
  });

  it('gives every option default a value its own schema accepts', () => {
    /** The options a tool cannot run without: the pages to remove, the password to protect with, the values, what to redact. */
    const required: Record<string, Record<string, string>> = {
      'pdf-page-remove': { pages: '1' },
      'protect-pdf': { userPassword: 'secret' },
      'organize-pdf': { plan: '1' },
      'fill-pdf-form': { values: '{}' },
      'redact-pdf': { terms: 'secret' },
    };
    let checked = 0;
    for (const tool of all) {
      expect(tool.options.safeParse({}).success, tool.id).toBe(!required[tool.id]);
      const { properties = {} } = z.toJSONSchema(tool.options, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { default?: unknown }>;
      };
      for (const [field, { default: value }] of Object.entries(properties)) {
        if (value === undefined) continue;
        // As a form would send it: the default, as text.
        const given = { ...required[tool.id], [field]: String(value) };
        expect(tool.options.safeParse(given).success, `${tool.id}.${field}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
    expect(findTool('pdf-page-remove')!.options.safeParse({}).success).toBe(false); // pages is required
    expect(findTool('organize-pdf')!.options.safeParse({}).success).toBe(false); // plan is required
    expect(findTool('add-watermark')!.options.parse({})).toEqual({
      text: 'CONFIDENTIAL',
      opacity: 0.3,
      position: 'diagonal',
    });
    expect(findTool('rotate-pdf')!.options.parse({})).toEqual({ angle: 90 });
    expect(findTool('pdf-compress')!.options.parse({})).toEqual({ level: 'recommended' });
    expect(findTool('pdf-to-images')!.options.parse({})).toEqual({ format: 'png', dpi: 150 });
    expect(findTool('html-to-pdf')!.options.parse({})).toEqual({ pageSize: 'a4', landscape: false });
  });

  it("types each tool's options by its schema, as its run function gets them", () => {
    expectTypeOf<ToolOptions<'rotate-pdf'>>().toEqualTypeOf<{ angle: number; pages?: string | undefined }>();
    expectTypeOf<ToolOptions<'pdf-to-images'>>().toEqualTypeOf<{ format: 'png' | 'jpg'; dpi: number }>();
    expectTypeOf<ToolOptions<'html-to-pdf'>>().toEqualTypeOf<{ pageSize: 'a4' | 'letter'; landscape: boolean }>();
  });

  it('tells the output kind, from an option where one decides it', () => {
    const text = findTool('pdf-to-text')!;
    expect(outputKind(text, { format: 'md' })).toBe('md');
    expect(outputKind(text, { format: 'txt' })).toBe('txt');
    expect(defaultOutputKind(text)).toBe('txt');
    expect(() => outputKind(text, { format: 'constructor' })).toThrow('no output kind');
    expect(outputKind(findTool('pdf-split')!, {})).toBe('zip');
  });

  it('declares only known input kinds and sane counts', () => {
    for (const tool of all) {
      if (!('kinds' in tool.input)) continue;
      for (const k of tool.input.kinds) expect(fileKinds[k], `${tool.id}: ${k}`).toBeDefined();
      expect(tool.input.min).toBeGreaterThanOrEqual(1);
      expect(tool.input.max).toBeGreaterThanOrEqual(tool.input.min);
    }
  });

  it('names only catalog tools in every list', () => {
    const listed = [...headerMenus.flatMap((m) => m.tools), ...footerColumns.tools, ...searchTools, ...workflowTools];
    for (const id of listed) expect(findTool(id), id).toBeDefined();
    // The spec's twelve, then OCR (issue 18: scans go through OCR, then on to the other tools) and the tools added since.
    expect(searchTools.slice(0, 13)).toEqual([
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
    ]);
    expect(workflowTools).toContain('pdf-ocr');
    // The builder sets no options and sends one file: it offers every searchable tool that runs so, and
    // only those (Sign PDF needs a signature image or a certificate besides the PDF).
    for (const id of searchTools) {
      const runsBare = findTool(id)!.options.safeParse({}).success && id !== 'sign-pdf';
      expect((workflowTools as readonly string[]).includes(id), id).toBe(runsBare);
    }
    expect(headerMenus.map((m) => m.group)).toEqual(['Convert', 'Extract', 'Edit']);
    expect(blogCategories).toEqual(['All', 'Convert', 'Extract', 'Edit']);
    expect(constants.blogPageSize).toBe(12);
  });

  it('lists every tool in exactly one header menu, the spec entries first and in order', () => {
    const menus = menusOf(all);
    expect(menus.map((m) => m.group)).toEqual(['Convert', 'Extract', 'Edit', 'More']);
    const ids = menus.flatMap((m) => m.tools.map((t) => t.id));
    expect([...ids].sort()).toEqual(all.map((t) => t.id).sort());
    headerMenus.forEach((spec, i) =>
      expect(menus[i]!.tools.map((t) => t.id).slice(0, spec.tools.length)).toEqual(spec.tools),
    );
    for (const id of ['image-to-pdf', 'pdf-metadata-cleaner', 'pdf-to-html', 'pdf-from-url', 'screenshot-to-pdf']) {
      expect(ids, id).toContain(id);
    }
    // A new tool joins its category's menu; one of a category without a menu joins "More".
    const added = menusOf([...all, { id: 'new-edit', category: 'Edit' }, { id: 'new-util', category: 'Utility' }]);
    expect(added[2]!.tools.at(-1)!.id).toBe('new-edit');
    expect(added[3]!.tools.map((t) => t.id)).toContain('new-util');
  });

  it('gives every error code a status and a message', () => {
    expect(errorCodes.missing_file.message).toBe('Please choose a file.');
    expect(errorCodes.invalid_url.message).toBe('Please enter a valid URL.');
    for (const { status, message } of Object.values(errorCodes)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(message).toMatch(/\.$/);
    }
  });
});

describe('which tools take a password', () => {
  it('every tool that reads PDFs or Office documents, and the site offers the field for exactly those', () => {
    const taking = all.filter(takesPassword).map((t) => t.id);
    expect(taking).toEqual(
      expect.arrayContaining(['pdf-unlock', 'pdf-merge', 'word-to-pdf', 'excel-to-pdf', 'ppt-to-pdf']),
    );
    expect(taking).not.toContain('html-to-pdf');
    expect(taking).not.toContain('jpg-to-pdf');
    expect(
      siteTools()
        .filter((t) => t.password)
        .map((t) => t.id),
    ).toEqual(taking);
  });
});

describe('options from form fields', () => {
  const rotate = findTool('rotate-pdf')!;

  it('coerces strings, ignores empty and unknown fields', () => {
    expect(parseOptions(rotate, { angle: '180', pages: '', colour: 'red' })).toEqual({
      ok: true,
      value: { angle: 180 },
    });
    expect(parseOptions(findTool('pdf-to-images')!, { dpi: '300' })).toMatchObject({ ok: true, value: { dpi: 300 } });
  });

  it('names the field and what it may be', () => {
    const bad = parseOptions(rotate, { angle: '45' });
    expect(bad).toMatchObject({ ok: false, code: 'invalid_option', field: 'angle' });
    expect(!bad.ok && bad.message).toContain('90, 180, 270');
    const dpi = parseOptions(findTool('pdf-to-images')!, { dpi: '9000' });
    expect(!dpi.ok && dpi.message).toContain('at most 300');
    const pages = parseOptions(findTool('pdf-page-remove')!, {});
    expect(pages).toMatchObject({ ok: false, field: 'pages' });
    expect(!pages.ok && pages.message).toContain('required');
    const ranges = parseOptions(findTool('pdf-split')!, { ranges: '1-3;7' });
    expect(ranges).toMatchObject({ ok: false, field: 'ranges' });
  });

  it("reads Fill PDF Form's values as JSON of field names and values, naming a value of no kind", () => {
    const fill = findTool('fill-pdf-form')!;
    const values = { Name: 'Ada', Age: 36, Agree: true, Colours: ['Red', 'Blue'] };
    expect(parseOptions(fill, { values: JSON.stringify(values), flatten: 'true' })).toEqual({
      ok: true,
      value: { values, flatten: true },
    });
    const wrong: [string, string][] = [
      ['{"Name":null}', 'field "Name" must be given text'],
      ['{"Name":[1]}', 'field "Name" must be given text'],
      ['{"Name"', 'it must be JSON'],
      ['[1,2]', 'it must be an object'],
      ['"Ada"', 'it must be an object'],
    ];
    for (const [given, message] of wrong) {
      const r = parseOptions(fill, { values: given });
      expect(r, given).toMatchObject({ ok: false, code: 'invalid_option', field: 'values' });
      expect(!r.ok && r.message, given).toContain(message);
    }
  });

  it('asks Protect PDF for the password to open, and refuses what the PDF standard could not keep', () => {
    const protect = findTool('protect-pdf')!;
    for (const fields of [{}, { userPassword: '' }]) {
      const missing = parseOptions(protect, fields);
      expect(missing).toMatchObject({ ok: false, code: 'invalid_option', field: 'userPassword' });
      expect(!missing.ok && missing.message).toBe('The option "userPassword" is required.');
    }
    expect(parseOptions(protect, { userPassword: ' pass word ', ownerPassword: '' })).toEqual({
      ok: true,
      value: {
        userPassword: ' pass word ',
        allowPrint: true,
        allowCopy: true,
        allowModify: true,
        allowAnnotate: true,
        allowFillForms: true,
      },
    });
    const refused = (fields: Record<string, string>) => {
      const r = parseOptions(protect, { userPassword: 'secret', ...fields });
      return r.ok ? undefined : { field: r.field, message: r.message };
    };
    expect(refused({ userPassword: 'two\nlines' })?.message).toContain('line breaks');
    expect(refused({ userPassword: 'é'.repeat(64) })?.message).toContain('127 bytes');
    expect(refused({ userPassword: 'a'.repeat(128) })?.field).toBe('userPassword');
    expect(refused({ allowFillForms: 'false' })).toMatchObject({ field: 'allowFillForms' });
    expect(refused({ allowFillForms: 'false', allowAnnotate: 'false' })).toBeUndefined();
    expect(refused({ ownerPassword: 'secret', allowPrint: 'false' })).toMatchObject({ field: 'ownerPassword' });
    expect(refused({ ownerPassword: 'secret' })).toBeUndefined(); // nothing withheld: nothing to lift
    // Its passwords are form fields that hide what is typed; the API names them as passwords.
    const secret = optionFields(protect).filter((f) => f.secret);
    expect(secret.map((f) => [f.name, f.required])).toEqual([
      ['userPassword', true],
      ['ownerPassword', false],
    ]);
  });

  it('names in each check only options the tool has', () => {
    for (const tool of all) {
      const { encrypted } = tool.checks;
      if (!encrypted) continue;
      const shape = (tool.options as unknown as { shape: Record<string, unknown> }).shape;
      const named = [encrypted.password, encrypted.ownerPassword, ...Object.values(encrypted.permissions ?? {})];
      for (const option of named.filter((o) => o !== undefined))
        expect(shape, `${tool.id}: ${option}`).toHaveProperty(option!);
      expect(Object.keys(encrypted.permissions ?? {}).sort()).toEqual([...pdfPermissions].sort());
    }
  });

  it('counts files against each tool', () => {
    expect(checkFileCount(findTool('pdf-merge')!, 1)?.code).toBe('too_few_files');
    expect(checkFileCount(findTool('pdf-merge')!, 2)).toBeUndefined();
    expect(checkFileCount(findTool('pdf-split')!, 2)?.code).toBe('too_many_files');
    expect(checkFileCount(findTool('pdf-split')!, 0)?.code).toBe('missing_file');
  });
});

describe('page ranges', () => {
  it('reads lists with open ends', () => {
    expect(parsePageRanges('1-3, 4,5-')).toEqual([
      { from: 1, to: 3 },
      { from: 4, to: 4 },
      { from: 5, to: undefined },
    ]);
    expect(expandPageRanges(parsePageRanges('1-3,4,5-'), 6)).toEqual([[1, 2, 3], [4], [5, 6]]);
    expect(pagesOf('4-6,2,5', 10)).toEqual([2, 4, 5, 6]);
  });

  it('refuses nonsense and pages past the end', () => {
    for (const bad of ['', 'a', '0', '3-1', '1,,2', '-3']) expect(() => parsePageRanges(bad), bad).toThrow(RangeError);
    expect(() => expandPageRanges(parsePageRanges('5'), 4)).toThrow(/4 pages/);
  });
});

describe('workflows', () => {
  it('accepts chains where each step reads what the last one made', () => {
    const ok = checkWorkflow(['pdf-merge', 'pdf-compress', 'pdf-split']);
    expect(ok.ok && ok.value.tools.map((t) => t.id)).toEqual(['pdf-merge', 'pdf-compress', 'pdf-split']);
    expect(checkWorkflow(['jpg-to-pdf', 'rotate-pdf']).ok).toBe(true);
    expect(checkWorkflow(['pdf-ocr', 'pdf-to-word']).ok).toBe(true);
  });

  it('names the first step that does not fit', () => {
    const after = checkWorkflow(['pdf-split', 'pdf-compress']);
    expect(!after.ok && after.message).toMatch(/^Step 2/);
    expect(checkWorkflow(['pdf-compress', 'pdf-merge'])).toMatchObject({ ok: false, code: 'invalid_workflow' });
    expect(checkWorkflow(['pdf-from-url'])).toMatchObject({ ok: false });
    expect(checkWorkflow(['word-to-pdf', 'nope'])).toMatchObject({ ok: false });
    expect(checkWorkflow([])).toMatchObject({ ok: false });
  });

  it('takes options per step, checked against each tool, and follows the kind they make', () => {
    const ok = checkWorkflow([
      { tool: 'word-to-pdf' },
      { tool: 'add-page-numbers' },
      { tool: 'add-watermark', options: { text: 'DRAFT', opacity: 0.3 } },
      { tool: 'pdf-compress' },
    ]);
    expect(ok.ok && ok.value.fields).toEqual([{}, {}, { text: 'DRAFT', opacity: '0.3' }, {}]);
    const bad = checkWorkflow([{ tool: 'pdf-compress' }, { tool: 'rotate-pdf', options: { angle: 45 } }]);
    expect(!bad.ok && bad.message).toMatch(/^Step 2 \("rotate-pdf"\): The option "angle"/);
    const unknown = checkWorkflow([{ tool: 'pdf-compress', options: { colour: 'red' } }]);
    expect(!unknown.ok && unknown.message).toBe('Step 1 ("pdf-compress") has no option "colour".');
    // A protected result's password is given when the workflow runs, never kept in it.
    const secret = checkWorkflow([{ tool: 'protect-pdf', options: { userPassword: 'hunter2' } }]);
    expect(!secret.ok && secret.message).toMatch(/passwords are not kept/);
    // Nor a certificate's.
    const certificate = checkWorkflow([{ tool: 'sign-pdf', options: { certificatePassword: 'hunter2' } }]);
    expect(!certificate.ok && certificate.message).toMatch(
      /passwords are not kept in a workflow \("certificatePassword"\)/,
    );
    // What a step makes follows its options: pdf-to-text's Markdown is not a PDF.
    expect(checkWorkflow([{ tool: 'pdf-to-text' }, { tool: 'pdf-compress' }])).toMatchObject({ ok: false });
    expect(checkWorkflow(Array.from({ length: 21 }, () => 'pdf-compress'))).toMatchObject({ ok: false });
  });
});
