import type { Config } from '@react-router/dev/config';
import { sitePaths } from './site-paths.ts';

/** Every public page is prerendered to HTML at build time and hydrated in the browser; nginx serves files. */
export default {
  ssr: false,
  buildDirectory: 'build',
  prerender: () => sitePaths().map((p) => p.path),
} satisfies Config;
