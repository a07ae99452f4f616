// Lint rules, and the import boundaries of docs/architecture.md ("Who may import whom"), enforced by
// eslint-plugin-boundaries: each folder below is an element, and an element imports only what its
// policy allows.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The shared packages by layer: a package imports the catalog and the packages of the layers below
 * its own, never its own layer or above, so their graph has no cycle. The service kit (the app factory)
 * is alone on top because the gateway may use everything else.
 */
const layers = [['base', 'detect'], ['pdf', 'http'], ['service-kit']];

/** The workspaces: a file in one reaches another by its package name, never by a relative path. */
const workspaces = ['catalog', 'package', 'service', 'gateway', 'frontend'];
/** Relative import paths (micromatch's `**` does not cross `..`, so each depth is spelled out). */
const relative = ['[.]/**', ...Array.from({ length: 8 }, (_, depth) => `${'../'.repeat(depth + 1)}**`)];

const element = (type, name) => ({ element: name ? { type, captured: { name } } : { type } });
const packages = (names) => names.map((name) => element('package', name));

/** `from` may import these and nothing else of ours; `message` says what it may, for the error. */
const only = (from, to, message) => [
  { from, disallow: { to: { element: { type: '*' } } }, message },
  ...(to.length ? [{ from, allow: { to } }] : []),
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.run/**', 'coverage/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx,js,jsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.{ts,tsx,mts,js,jsx,mjs}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': {
        typescript: { project: ['tsconfig.json', 'frontend/tsconfig.json'], noWarnOnMultipleProjects: true },
      },
      // Matched from the repository's root: `scripts` is the top folder, not frontend/scripts.
      'boundaries/elements': [
        { type: 'catalog', pattern: 'packages/catalog' },
        { type: 'package', pattern: 'packages/*', capture: ['name'] },
        { type: 'service', pattern: 'services/*', capture: ['name'] },
        { type: 'gateway', pattern: 'gateway' },
        { type: 'frontend', pattern: 'frontend' },
        // What tests over a running stack share with the benchmarks: corpus, HTTP calls, browsers, fidelity measures.
        { type: 'test-helpers', pattern: 'tests/lib' },
        { type: 'tests', pattern: 'tests' },
        { type: 'scripts', pattern: 'scripts' },
        { type: 'bench', pattern: 'bench' },
        { type: 'infra', pattern: 'infra' },
      ].map((descriptor) => ({ ...descriptor, partialMatch: false })),
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            ...only(element('catalog'), [], 'The catalog imports nothing of ours.'),
            ...layers.flatMap((layer, i) =>
              layer.flatMap((name) =>
                only(
                  element('package', name),
                  [element('catalog'), ...packages(layers.slice(0, i).flat())],
                  `@quire/${name} may import the catalog${i ? ` and @quire/${layers.slice(0, i).flat().join(', @quire/')}` : ''} only.`,
                ),
              ),
            ),
            ...only(
              element('service'),
              [element('catalog'), element('package')],
              'A service imports the catalog and the packages only: never another service or the gateway.',
            ),
            ...only(
              element('gateway'),
              [element('catalog'), ...packages(layers.flat().filter((name) => name !== 'service-kit'))],
              'The gateway imports the catalog and the packages except the service kit; it calls services over HTTP.',
            ),
            ...only(element('frontend'), [element('catalog')], 'The front end imports the catalog only.'),
            ...only(
              element('tests'),
              ['catalog', 'package', 'service', 'gateway', 'frontend', 'test-helpers', 'scripts', 'infra'].map((t) =>
                element(t),
              ),
              'Tests import the catalog, packages, services, the gateway, the site, scripts and infra.',
            ),
            ...only(
              element('test-helpers'),
              ['catalog', 'package', 'service', 'gateway', 'frontend', 'scripts', 'infra'].map((t) => element(t)),
              'Test helpers import the catalog, packages, services, the gateway, the site, scripts and infra; never tests.',
            ),
            ...only(
              element('bench'),
              ['catalog', 'package', 'service', 'gateway', 'test-helpers', 'scripts'].map((t) => element(t)),
              'Benchmarks import the catalog, packages, services, the gateway, scripts and the test helpers (tests/lib); never tests.',
            ),
            ...only(
              element('scripts'),
              ['catalog', 'package', 'gateway', 'frontend', 'infra'].map((t) => element(t)),
              'Scripts import the catalog, packages, the gateway, the site and infra.',
            ),
            ...only(
              element('infra'),
              ['catalog', 'package', 'frontend', 'scripts'].map((t) => element(t)),
              'Infra imports the catalog, packages, the site and scripts.',
            ),
            // Last, so that it holds whatever the element may import.
            {
              from: workspaces.map((t) => element(t)),
              disallow: { dependency: { source: relative } },
              message: 'Do not reach outside a package by a relative path: import the package by its name.',
            },
          ],
        },
      ],
    },
  },
);
