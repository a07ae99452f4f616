import type { Category } from '@quire/catalog';

/** The tool being added: its id, and its name and description as given or made from the id. */
export interface NewTool {
  id: string;
  name: string;
  description: string;
}

/**
 * What the scaffold writes for a tool of one service: a tool that already works and passes its checks,
 * doing something small with the service's engines, to be turned into the real one.
 */
export interface ToolTemplate {
  icon: string;
  category: Category;
  /** The guide's category: the blog has fewer than the catalog. */
  guideCategory: 'Convert' | 'Extract' | 'Edit';
  /** The catalog entry's `input`, `output`, `checks` and `options` fields, as source in tools.ts. */
  entry: string;
  /** What `entry` uses from the catalog's options.ts. */
  optionImports: readonly string[];
  /** The example option: its field name, its English label, and a line of the guide about it. */
  option: { name: string; label: string; guide: string };
  /** What the guide says the visitor gives the tool, and what comes back. */
  takes: string;
  makes: string;
  /** `src/tools/<id>/index.ts`. */
  run(tool: NewTool): string;
  /** `src/tools/<id>/<id>.test.ts`: the tool called in-process, its output checked. */
  unitTest(tool: NewTool): string;
  /** `tests/contract/<id>.test.ts`: the tool called through nginx and the gateway, its output checked. */
  contractTest(tool: NewTool): string;
}

/** The header every scaffolded `run` starts with: what it does now, and what is already done for it. */
export function runComment(name: string, doesNow: string): string {
  return `/**
 * ${name}: for now, ${doesNow}.
 * Change this into what the tool does: the kit has already checked the inputs and parsed the options
 * by the catalog's schema, and checks the result before it is offered.
 */`;
}

/** The lines every contract stub starts with: the stack's public address, read once. */
export const contractPreamble = `let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});`;
