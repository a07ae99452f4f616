import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import {
  accepts,
  checkFileCount,
  fileKinds,
  parseOptions,
  takesPassword,
  takesUrl,
  type FileKind,
  type Tool,
} from '@quire/catalog';
import { safeName, ToolError, uploadLimitBytes } from '@quire/base';
import { isHeic, sniffKind, uploadKind } from '@quire/detect';

/** What a tool call's form may hold, wherever it is read (the gateway passes it on under the same bounds). */
export const formLimits = {
  /** Form fields beyond the files; enough for every tool's options, bounded against floods. */
  fields: 50,
  /** More files than any tool takes, so that one too many is reported as such. */
  files: 51,
  fieldSize: 64 * 1024,
} as const;

/**
 * How a form is read, wherever it is: in 256 KiB chunks, a few times the socket's, where the stream
 * default of 16 KiB makes the parser itself cost some 10 ms per MB (a 100 MB upload, a second).
 */
export const formReading = { highWaterMark: 256 * 1024, fileHwm: 256 * 1024 } as const;

/** Multipart into the request's work directory (set by workdirMiddleware), under the one upload limit. */
export function uploadMiddleware(fieldNames: readonly string[] = ['file']) {
  return (req: Request, res: Response, next: NextFunction) => {
    let n = 0;
    const storage = multer.diskStorage({
      destination: res.locals.workdir as string,
      // Never the client's name on disk: a counter, so nothing in a name can reach a path.
      filename: (_req, _file, cb) => cb(null, `in-${++n}`),
    });
    const upload = multer({
      storage,
      limits: { fileSize: uploadLimitBytes(), ...formLimits },
      // Browsers send UTF-8 file names; without this multer reads them as Latin-1.
      defParamCharset: 'utf8',
      ...formReading,
    }).fields(fieldNames.map((name) => ({ name, maxCount: formLimits.files })));
    upload(req, res, next);
  };
}

export interface ToolInput {
  path: string;
  /** The name the client gave, for naming results only. */
  name: string;
  kind: FileKind;
  size: number;
  /** Whether the upload was an encrypted PDF; `path` is then its decrypted copy. */
  encrypted?: boolean;
  /** The upload as it came, when `path` is its decrypted copy. */
  upload?: string;
}

export interface ToolRequest {
  inputs: ToolInput[];
  url?: string;
  options: Record<string, unknown>;
  password?: string;
}

export function uploadedFiles(req: Request): Express.Multer.File[] {
  const files = req.files;
  if (!files) return [];
  if (Array.isArray(files)) return files;
  return Object.values(files).flat();
}

function field(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The check's answer to a file of a kind the tool does not read, named as the client named it (cleaned).
 * A HEIC photo (what iPhones take) is named as such, with what to do: no decoder for it is at hand.
 */
export function unsupportedType(tool: Tool, name: string, heic = false, kind?: FileKind): ToolError {
  const wanted = 'kinds' in tool.input ? tool.input.kinds.map((k) => fileKinds[k].label).join(', ') : '';
  const details = { details: { file: name, tool: tool.id, ...(heic ? { kind: 'heic' } : kind ? { kind } : {}) } };
  if ('kinds' in tool.input && tool.input.damaged)
    return new ToolError(
      'unsupported_type',
      `"${name}" holds no ${wanted}, not even a damaged one: there is nothing to repair.`,
      details,
    );
  if (heic)
    return new ToolError(
      'unsupported_type',
      `"${name}" is a HEIC image, which this tool cannot read (it takes ${wanted}): please save it as JPEG first.`,
      details,
    );
  return new ToolError('unsupported_type', `"${name}" is not a file this tool can read (it takes ${wanted}).`, details);
}

/** A file of no bytes: nothing to read, whatever the tool (a broken download or copy, usually). */
export function emptyFile(name: string): ToolError {
  return new ToolError('empty_file', `"${name}" is empty (0 bytes).`, { details: { file: name } });
}

/**
 * Everything the contract asks of a tool request before any work: the files' count and kinds (by
 * content), the URL's form, and the options against the tool's schema. Shared by gateway and services.
 */
export async function checkToolRequest(tool: Tool, req: Request): Promise<ToolRequest> {
  const files = uploadedFiles(req);
  const fields = Object.fromEntries(
    Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
  );
  const parsed = parseOptions(tool, fields);
  const invalidOption = (p: typeof parsed & { ok: false }) =>
    new ToolError(p.code, p.message, p.field ? { details: { option: p.field } } : {});
  if (takesUrl(tool)) {
    const url = field(req, 'url')?.trim() ?? '';
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
      throw new ToolError('invalid_url', 'Please enter a valid URL.');
    if (!parsed.ok) throw invalidOption(parsed);
    return { inputs: [], url, options: parsed.value };
  }
  const invalidCount = checkFileCount(tool, files.length);
  if (invalidCount) throw new ToolError(invalidCount.code, invalidCount.message);
  const inputs: ToolInput[] = [];
  for (const file of files) {
    const name = safeName(file.originalname);
    if (file.size === 0) throw emptyFile(name);
    const kind = await uploadKind(tool, file.path);
    if (!kind)
      throw unsupportedType(tool, name, accepts(tool, 'jpeg') && (await isHeic(file.path)), await sniffKind(file.path));
    inputs.push({ path: file.path, name, kind, size: file.size });
  }
  if (!parsed.ok) throw invalidOption(parsed);
  const password = takesPassword(tool) ? field(req, 'password') : undefined;
  return { inputs, options: parsed.value, ...(password ? { password } : {}) };
}
