import { defineConfig } from 'vitest/config';

// isolated-vm needs --no-node-snapshot on Node 20+, so tests run in forked workers that carry the flag.
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'test/**/*.test.ts',
      'conformance/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
