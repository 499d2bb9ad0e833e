import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './tests/helpers/sequencer.ts';

export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts', 'db/**/*.test.ts', 'functions/**/*.test.ts', 'tests/{api,db,unit,edge}/**/*.test.ts'],
    // Type-level tests (`*.test-d.ts`, expectTypeOf) run through tsc, which can fail them; at run
    // time expectTypeOf checks nothing, so they are not in `include`.
    typecheck: { enabled: true, include: ['db/**/*.test-d.ts'], tsconfig: './tsconfig.type-tests.json' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file makes its own database in a temp dir and its own port. No test mocks a module or
    // changes the environment, so a worker keeps the modules it imported from one file to the next
    // (isolate: false; importing the app was a third of the run). Vitest's default on this 2-core
    // machine is one worker (cores - 1), but most of a file's time is spent waiting (builds in
    // child processes, servers, timers): four files run side by side. vitest alone, idle: 197 s
    // at about 1.7 cores with three, 183 s at 1.95 with four (2026-11-28).
    pool: 'forks',
    isolate: false,
    maxWorkers: 4,
    // The slow files first in a clean clone too (tests/helpers/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
