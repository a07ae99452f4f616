import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const production = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
);

/**
 * React Router's production build, which its package never selects (every export condition names the
 * development build, remix-run/react-router#14102), for the prerendered pages and the browser alike so
 * that both render the same; in the browser, without what only its DevTools names and unused components
 * keep: the components made with `forwardRef` are not marked pure and each carries a `displayName`
 * assignment, so `NavLink` and `Form` stayed in every page's script.
 */
export function productionRouter(): Plugin {
  return {
    name: 'quire-production-router',
    enforce: 'pre',
    resolveId(source) {
      if (source === 'react-router') return join(production, 'index.mjs');
      if (source === 'react-router/dom') return join(production, 'dom-export.mjs');
      return undefined;
    },
    transform(code, id) {
      if (!id.startsWith(production)) return undefined;
      // Lines stay where they were: the source map needs no change.
      const out = code
        .replace(/^(var \w+ = )(React\d*\.forwardRef\()/gm, '$1/* @__PURE__ */ $2')
        .replace(/^\w+\.displayName = "[^"]*";$/gm, '');
      return { code: out, map: null };
    },
  };
}
