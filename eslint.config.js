// Lint rules: typescript-eslint's recommended set plus the few rules that keep domain doors honest.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { domainDoors } from './eslint-rules/domain-doors.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', '.conformance/', '.prof/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use named exports in a domain door, not export *.' },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Only src/config reads process.env: every setting comes from the configuration (docs/configuration.md).',
        },
      ],
    },
  },
  {
    // The in-isolate shims run in a bare V8 context: no Node module exists there, only what the bundle carries.
    files: ['src/sandbox/isolate/shim/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The isolate has no Node modules; ask the host through callSync.' },
            {
              group: ['../../*', '../../../*'],
              allowTypeImports: true,
              message: 'A shim takes only types from host modules: their code does not run in the isolate.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { portcullis: { rules: { 'domain-doors': domainDoors } } },
    rules: { 'portcullis/domain-doors': 'error' },
  },
  {
    // The pure domains take plain data and return plain data: no files, sockets, processes, store or telemetry.
    files: [
      'src/risk/**/*.ts',
      'src/poisoning/**/*.ts',
      'src/ledger/**/*.ts',
      'src/tool-specs/resolver.ts',
      'src/tool-specs/risk-level.ts',
      'src/tool-specs/tool-safety.ts',
    ],
    ignores: ['**/*.test.ts', '**/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:fs',
                'node:fs/*',
                'node:net',
                'node:http',
                'node:https',
                'node:http2',
                'node:dns',
                'node:dgram',
                'node:child_process',
                'node:worker_threads',
                'better-sqlite3',
                '@opentelemetry/*',
              ],
              message: 'A pure domain does no I/O: take the data as an argument and let the caller read it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
