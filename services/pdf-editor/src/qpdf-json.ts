import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Job } from '@quire/base';
import { qpdf } from '@quire/pdf';

/** A PDF object as qpdf's JSON (version 2) gives it: a value, or a stream's dictionary and data file. */
export type PdfValue = string | number | boolean | null | PdfValue[] | { [key: string]: PdfValue };
export type PdfDict = Record<string, PdfValue>;
export interface JsonObject {
  value?: PdfValue;
  stream?: { dict: PdfDict; datafile?: string };
}
export type Objects = Record<string, JsonObject>;

/** How much of their encoding qpdf takes off the stream data it writes out. */
export type DecodeLevel = 'none' | 'generalized';

/**
 * The file's objects as qpdf's JSON: dictionaries only, or with `only` the objects named and their
 * stream data, decoded to `decode` (generalized: Flate, LZW...; JPEG stays JPEG), in files under `dir`.
 */
export async function dumpObjects(
  path: string,
  dir: string,
  job: Job,
  only?: { objects: number[]; decode: DecodeLevel },
): Promise<Objects> {
  const name = only ? `${only.decode}-${Math.random().toString(36).slice(2)}` : 'objects';
  const json = join(dir, `${name}.json`);
  const data = only
    ? ['--json-stream-data=file', `--json-stream-prefix=${join(dir, name)}`, `--decode-level=${only.decode}`]
    : ['--json-stream-data=none'];
  const objects = (only?.objects ?? []).map((n) => `--json-object=${n}`);
  await qpdf(['--json=2', '--json-key=qpdf', ...data, ...objects, path, json], job);
  const parsed = JSON.parse(await readFile(json, 'utf8')) as { qpdf: [unknown, Objects] };
  return parsed.qpdf[1];
}

/** Writes `updates` over `source` into `out` (objects not given stay; a stream given a dict only keeps its data). */
export async function applyUpdates(
  source: string,
  out: string,
  updates: Objects,
  dir: string,
  job: Job,
): Promise<void> {
  const header = { jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: 0 };
  const update = join(dir, 'update.json');
  await writeFile(update, JSON.stringify({ qpdf: [header, updates] }));
  await qpdf([source, `--update-from-json=${update}`, out], job);
}

/** A value as a dictionary, when it is one. */
export function asDict(value: PdfValue | undefined): PdfDict | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/** The object number of a key such as "obj:12 0 R". */
export function objectNumber(key: string): number {
  return Number(/^obj:(\d+) /.exec(key)?.[1] ?? NaN);
}

/** The key of the object a reference ("12 0 R") names, or undefined for any other value. */
export function referenced(value: PdfValue | undefined): string | undefined {
  return typeof value === 'string' && /^\d+ \d+ R$/.test(value) ? `obj:${value}` : undefined;
}

/** A value with every reference in `moved` ("12 0 R" → "7 0 R") pointing to its new object. */
export function relink(value: PdfValue, moved: ReadonlyMap<string, string>): PdfValue {
  if (typeof value === 'string') return moved.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => relink(v, moved));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relink(v, moved)]));
  }
  return value;
}
