// Lint rules, and the import boundaries of docs/architecture.md ("Who may import whom") enforced per folder
// with the built-in no-restricted-imports: by package name, and by relative paths that leave a package.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const serviceNames = ['pdf-editor', 'office', 'renderer', 'image', 'pdf-extract'];
const named = (names) => `^@quire/(${names.join('|')})(/|$)`;

/** How deep below a package's folder its files may be; deeper files are not checked for `../` paths. */
const maxDepth = 8;

/**
 * One config per folder depth inside `dir`, each forbidding the given package names and any relative
 * path that climbs out of `dir` (from a file d folders down, d + 1 times `../`).
 */
function boundary(dir, forbidden) {
  return Array.from({ length: maxDepth + 1 }, (_, depth) => ({
    files: [`${dir}/${'*/'.repeat(depth)}*.{ts,tsx,mts,js,jsx,mjs}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbidden.map(([regex, message]) => ({ regex, message })),
            {
              regex: `^(\\./)?(\\.\\./){${depth + 1},}`,
              message: `Do not reach outside ${dir} by a relative path: import the package by its name.`,
            },
          ],
        },
      ],
    },
  }));
}

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
  ...boundary('packages/catalog', [['^@quire/', 'The catalog imports nothing of ours.']]),
  ...boundary('packages/service-kit', [
    [named(['gateway', ...serviceNames]), 'The service kit may import the catalog only.'],
  ]),
  ...serviceNames.flatMap((name) =>
    boundary(`services/${name}`, [
      [named(['gateway']), 'Services never import the gateway: it calls them over HTTP.'],
      [named(serviceNames.filter((s) => s !== name)), 'Services never import each other.'],
    ]),
  ),
  ...boundary('gateway', [[named(serviceNames), 'The gateway talks to services over HTTP only.']]),
  ...boundary('frontend', [['^@quire/(?!catalog(/|$))', 'The front end imports the catalog only.']]),
);
