/**
 * `node --import @quire/base/ts-loader main.ts`: how the gateway and the services run their TypeScript.
 * Only `.ts` files are compiled (by esbuild, types dropped, nothing bundled); everything else loads as
 * Node loads it. tsx, which the scripts and benchmarks use, also rewrites JavaScript packages that
 * import dynamically (pdf.js) and inlines their source maps, which holds some 150 MB in a process
 * that loads pdf.js: too much for a server that runs all day.
 */
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
// Stack traces point at the TypeScript lines (the compiled code carries its map).
process.setSourceMapsEnabled(true);
