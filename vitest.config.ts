import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts', 'db/**/*.test.ts', 'functions/**/*.test.ts', 'tests/{api,db,unit,edge}/**/*.test.ts'],
    // Type-level tests (`*.test-d.ts`, expectTypeOf) run through tsc, which can fail them; at run
    // time expectTypeOf checks nothing, so they are not in `include`.
    typecheck: { enabled: true, include: ['db/**/*.test-d.ts'], tsconfig: './tsconfig.type-tests.json' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file makes its own database in a temp dir; files run in parallel workers.
    pool: 'forks',
  },
});
