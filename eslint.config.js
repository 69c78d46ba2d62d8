// Lint rules: typescript-eslint's recommended set plus the few rules that keep domain doors honest.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    files: ['src/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Only src/config reads process.env (DESIGN.md decision 10).',
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
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
