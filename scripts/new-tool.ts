/**
 * Adds a tool: its catalog entry, its folder with a working `run` and a test, a contract test, an
 * English guide and its option's English label. Everything else (the service's map of tools, the API,
 * OpenAPI, the site's pages, menus, search and forms, the sitemap, Prometheus) follows from the catalog.
 * See docs/adding-a-tool.md.
 *
 *   npm run new-tool -- <tool-id> --service <service> [--name "Name"] [--description "One sentence."]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { planNewTool, Refusal } from './new-tool/plan.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const usage =
  'Usage: npm run new-tool -- <tool-id> --service <service> [--name "Name"] [--description "One sentence."]';

async function main(): Promise<void> {
  const { values, positionals } = (() => {
    try {
      return parseArgs({
        allowPositionals: true,
        options: { service: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } },
      });
    } catch (err) {
      throw new Refusal(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
    }
  })();
  const [id, ...rest] = positionals;
  if (!id || rest.length || !values.service) throw new Refusal(usage);
  const writes = await planNewTool(root, {
    id,
    service: values.service,
    ...(values.name !== undefined && { name: values.name }),
    ...(values.description !== undefined && { description: values.description }),
    date: new Date().toISOString().slice(0, 10),
  });
  for (const { path, content } of writes) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  console.log(`Added ${id}:`);
  for (const { path, created } of writes) console.log(`  ${created ? 'wrote  ' : 'changed'} ${path}`);
  console.log(
    "Next: make run() do the tool's work, then bring its tests, the catalog entry (name, description, checks) " +
      'and the guide in line with it. See docs/adding-a-tool.md.',
  );
}

main().catch((err: unknown) => {
  // A refusal is the user's to fix and says how; anything else is a bug, shown whole.
  console.error(err instanceof Refusal ? err.message : err);
  process.exit(1);
});
