import type { z } from 'zod';
import type { ResultChecks } from './checks.ts';
import type { FileKind } from './kinds.ts';

export const categories = ['Convert', 'Extract', 'Edit', 'Security', 'Utility', 'Preview'] as const;
export type Category = (typeof categories)[number];

/** The services that run tools; each is reached by the gateway at the URL in its setting. */
export const services = {
  'pdf-editor': { port: 3101, urlSetting: 'PDF_EDITOR_URL' },
  office: { port: 3102, urlSetting: 'OFFICE_URL' },
  renderer: { port: 3103, urlSetting: 'RENDERER_URL' },
  image: { port: 3104, urlSetting: 'IMAGE_URL' },
  'pdf-extract': { port: 3105, urlSetting: 'PDF_EXTRACT_URL' },
} as const;
export type ServiceName = keyof typeof services;

/** What a tool makes: one kind, or the kind each value of one of its options makes. */
export type ToolOutput = FileKind | { option: string; kinds: Readonly<Record<string, FileKind>> };

/** A tool as the gateway, the services and the site read it, whatever its options. */
export interface Tool {
  id: string;
  aliases: readonly string[];
  /** Common words people search for this tool by, in English (the site's dictionaries translate them). */
  keywords: readonly string[];
  name: string;
  description: string;
  /** A path, or an emoji when it holds no slash. */
  icon: string;
  category: Category;
  /** The usage count shown before any run is counted. */
  usage: number;
  service: ServiceName;
  /**
   * It reads pages by OCR: every page (`always`), or those that are scans (`scans`). OCR takes
   * `constants.ocrPageMs` a page, and a job's time allows for it.
   */
  ocr?: 'always' | 'scans';
  /**
   * What the tool reads: file kinds and how many, or a web address. `damaged`: the tool repairs what it
   * reads, so a PDF is any file a reader could recover one from, not only one that begins as a PDF.
   */
  input: { kinds: readonly FileKind[]; min: number; max: number; damaged?: boolean } | { url: true };
  /** Its inputs are protected as a rule (its work is to open them): the site asks for the password at once. */
  protectedInput?: boolean;
  output: ToolOutput;
  /** What every result must show before it is offered. */
  checks: ResultChecks;
  /** Parses form fields (strings) into the options the tool's run function gets. */
  options: z.ZodType<Record<string, unknown>>;
}

/** An option whose values each name the kind they make (only string values can). */
type OutputByOption<Options> = {
  [K in keyof Options & string]: { option: K; kinds: Record<Extract<Options[K], string>, FileKind> };
}[keyof Options & string];

/** One catalog entry, its id and options schema kept as written so that run functions are typed by them. */
export interface ToolDefinition<Id extends string, Schema extends Tool['options']> extends Omit<
  Tool,
  'id' | 'output' | 'options'
> {
  id: Id;
  output: FileKind | OutputByOption<z.output<Schema>>;
  options: Schema;
}

export function defineTool<const Id extends string, Schema extends Tool['options']>(
  tool: ToolDefinition<Id, Schema>,
): ToolDefinition<Id, Schema> {
  return tool;
}
