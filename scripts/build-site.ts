/**
 * Builds the static site into frontend/dist, which nginx serves. For now the site is the placeholder
 * in frontend/public, copied as it is.
 */
import { cp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'frontend', 'public');
const to = join(root, 'frontend', 'dist');

await rm(to, { recursive: true, force: true });
await cp(from, to, { recursive: true });
console.log(`site built in ${to}`);
