import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lomo from './scripts/eslint/package-boundaries.mjs';

// The domain and the contracts stay framework-free: DESIGN.md §1.
const infrastructure = [
  { group: ['@nestjs/*', '@nestjs/**'], message: 'libs/domain and libs/contracts must not depend on NestJS.' },
  { group: ['kafkajs', 'kafkajs/*'], message: 'libs/domain and libs/contracts must not depend on kafkajs.' },
  { group: ['mongodb', 'mongodb/*'], message: 'libs/domain and libs/contracts must not depend on mongodb.' },
  {
    group: ['better-sqlite3', 'better-sqlite3/*'],
    message: 'libs/domain and libs/contracts must not depend on better-sqlite3.',
  },
  {
    group: ['@eventstore/*', '@kurrent/*'],
    message: 'libs/domain and libs/contracts must not depend on the EventStoreDB client.',
  },
  {
    group: ['@lomo/eventstore', '@lomo/bus', '@lomo/read-models', '@lomo/blobs'],
    message: 'The domain talks to ports only through its callers.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist.building-*/**',
      'dist.old-*/**',
      'node_modules/**',
      'coverage/**',
      'schemas/**',
      '.cache/**',
      'scripts/**/*.cjs',
      'jest.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // Package boundaries and no test code in production: scripts/eslint/package-boundaries.mjs.
    files: ['**/*.ts'],
    plugins: { lomo },
    rules: { 'lomo/package-boundaries': 'error', 'lomo/no-test-code-in-production': 'error' },
  },
  {
    files: ['libs/domain/**/*.ts', 'libs/contracts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: infrastructure }] },
  },
);
