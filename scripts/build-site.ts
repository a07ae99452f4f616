/**
 * Builds the web site into frontend/dist, which nginx serves: every page prerendered by React Router,
 * then made ready for nginx (inline scripts moved to files, blog thumbnails, sitemap, robots.txt, gzip).
 */
import { spawn } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  externalizeInlineScripts,
  precompress,
  writeScriptHashes,
  writeSeoFiles,
} from '../frontend/scripts/postbuild.ts';
import { writeThumbnails } from '../frontend/scripts/thumbnails.ts';
import { siteConfig } from '../frontend/site.config.ts';
import { sitePaths } from '../frontend/site-paths.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const frontend = join(root, 'frontend');
const built = join(frontend, 'build');
const client = join(built, 'client');
const dist = join(frontend, 'dist');

const cli = join(dirname(createRequire(import.meta.url).resolve('@react-router/dev/package.json')), 'bin.js');
// The catalog is TypeScript, loaded by the build's config as it is.
const build = spawn(process.execPath, ['--import', 'tsx', cli, 'build'], {
  cwd: frontend,
  stdio: ['ignore', 'ignore', 'pipe'],
  env: { ...process.env, NODE_ENV: 'production' },
});
// React Router 7 gives its own internal Vite servers the `envFile: false` that Vite 8.1 deprecated, and no
// setting of ours reaches them; the warning is dropped, everything else the build says is passed on.
// Fixed in React Router 8 (remix-run/react-router#15229), which needs Node 22.
const deprecatedEnvFile = 'The `envFile` option is deprecated';
const [status] = await Promise.all([
  new Promise<number | null>((resolve, reject) => {
    build.on('error', reject);
    build.on('close', resolve);
  }),
  (async () => {
    for await (const line of createInterface({ input: build.stderr, crlfDelay: Infinity })) {
      if (!line.includes(deprecatedEnvFile)) process.stderr.write(`${line}\n`);
    }
  })(),
]);
if (status !== 0) {
  console.error('The site did not build.');
  process.exit(status ?? 1);
}

const moved = await externalizeInlineScripts(client);
await writeScriptHashes(client);
await writeThumbnails(join(client, 'blog'));
await writeSeoFiles(client, siteConfig.siteUrl, sitePaths());
// nginx answers every unknown address with this page.
await rename(join(client, '404', 'index.html'), join(client, '404.html'));
await rm(join(client, '404'), { recursive: true });
const compressed = await precompress(client);

// Swapped in at once, so that a running nginx never serves half a site.
const old = `${dist}.old`;
await rm(old, { recursive: true, force: true });
await rename(dist, old).catch(() => undefined);
await rename(client, dist);
await rm(old, { recursive: true, force: true });
await rm(built, { recursive: true, force: true });
console.log(
  `site built in ${dist}: ${sitePaths().length} pages, ${moved} inline scripts moved, ${compressed} files gzipped`,
);
