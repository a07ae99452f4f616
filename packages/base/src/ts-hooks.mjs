/** The module hooks ts-loader.mjs registers: a `.ts` file is compiled to JavaScript as it loads. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

// As tsc checks it (tsconfig.json): imports are kept as written, `import type` alone is dropped.
const tsconfigRaw = { compilerOptions: { verbatimModuleSyntax: true } };

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !/\.m?ts$/.test(new URL(url).pathname)) return next(url, context);
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: file,
    tsconfigRaw,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
