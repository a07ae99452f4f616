/**
 * Builds the web site into frontend/dist, which nginx serves: every page prerendered by React Router,
 * then made ready for nginx (inline scripts moved to files, blog thumbnails, sitemap, robots.txt, gzip).
 */
import { spawnSync } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
const build = spawnSync(process.execPath, ['--import', 'tsx', cli, 'build'], {
  cwd: frontend,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NODE_ENV: 'production' },
});
if (build.status !== 0) {
  console.error('The site did not build.');
  process.exit(build.status ?? 1);
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
