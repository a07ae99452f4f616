import { defineConfig } from 'vitest/config';
import { catalogPlugin } from './frontend/catalog-plugin.ts';

export default defineConfig({
  // The site's modules read the catalog through this plugin and their build-time settings as globals.
  plugins: [catalogPlugin()],
  define: { __SITE_URL__: JSON.stringify('http://localhost:8080'), __TAG_MANAGER_ID__: JSON.stringify('') },
  test: {
    // Engine jobs and the stack's start are slow on a small machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: [
            'packages/**/src/**/*.test.ts',
            'gateway/**/*.test.ts',
            'services/**/*.test.ts',
            'scripts/**/*.test.ts',
            'frontend/app/**/*.test.{ts,tsx}',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'fidelity',
          // pdf-extract's fidelity measures against ground truth (ICDAR 2013 tables, a Word round trip, text).
          include: ['tests/fidelity/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 1_200_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          // The site's browser tests share the stack (tests/site).
          include: ['tests/contract/**/*.test.ts', 'tests/site/**/*.test.ts'],
          // After the unit tests, on a quiet machine: timings such as a result's lifetime are real here.
          sequence: { groupOrder: 1 },
          // Starts nginx, the gateway and the services once, on test ports, for every contract test.
          globalSetup: 'tests/contract/setup.ts',
        },
      },
      {
        extends: true,
        test: {
          name: 'corpus',
          // Every corpus file through every tool that takes it (and two that do not), on a stack of its own.
          include: ['tests/corpus/**/*.test.ts'],
          // Alone on the machine, after the contract tests: each call is held to the job's time limit.
          sequence: { groupOrder: 3 },
          globalSetup: 'tests/corpus/setup.ts',
          testTimeout: 1_800_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ops',
          // Operations: each file starts the stacks it needs (replicas, Redis, Prometheus) on ports of its own.
          include: ['tests/ops/**/*.test.ts'],
          sequence: { groupOrder: 2 },
          testTimeout: 600_000,
        },
      },
    ],
  },
});
