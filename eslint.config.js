// Flat config. Beyond the recommended rules it enforces the one layering rule that matters most:
// pure stage logic never imports a queue, a database, an HTTP framework or a provider SDK.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IO_PACKAGES = ['bullmq', 'ioredis', 'drizzle-orm', 'drizzle-orm/*', 'pg', 'fastify', 'openai', 'openai/*', 'replicate'];

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'drizzle/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/stages/**/*.ts', 'src/builders/**/*.ts', 'src/review/**/*.ts', 'src/pipeline.ts', 'src/run-states.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: IO_PACKAGES, message: 'Stage logic is pure: do I/O in workers/, api/ or src/adapters.' }],
      }],
    },
  },
  {
    // The builder must not be able to reach quarantined example values, even by import.
    files: ['src/builders/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: IO_PACKAGES, message: 'Stage logic is pure: do I/O in workers/, api/ or src/adapters.' },
          { group: ['**/example-quarantine*', '**/leak-firewall*'], message: 'Builders never see example values (zero trust).' },
        ],
      }],
    },
  },
);
