// Flat config. Beyond the recommended rules it enforces the layering that matters most:
//  - pure stage logic never imports a queue, a database, an HTTP framework or a provider SDK;
//  - only src/db talks to PostgreSQL (pg, drizzle-orm, the tables): everyone else goes through its repositories;
//  - every switch over a union (a status, a stage, a move, an outcome, an action) names every member.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IO_PACKAGES = ['bullmq', 'ioredis', 'drizzle-orm', 'drizzle-orm/*', 'pg', 'fastify', 'openai', 'openai/*', 'replicate'];
const PURE = { group: IO_PACKAGES, message: 'Stage logic is pure: do I/O in the engine (src/engine), api/ or src/adapters.' };
/** Application code: src/ (but for src/db and the generated types), api/ and workers/. */
const APP_FILES = ['src/**/*.ts', 'api/**/*.ts', 'workers/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'clients/*/dist/', 'clients/*/src/generated/', 'drizzle/', 'coverage/', 'dist/', '**/*.generated.ts', 'console/dist/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Exhaustive switches need the types: only the application code is linted with them (it keeps lint fast).
    files: APP_FILES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: true }],
    },
  },
  {
    // Database access lives in src/db repositories, in one style: created once, held by the System.
    files: APP_FILES,
    ignores: ['src/db/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['pg', 'drizzle-orm', 'drizzle-orm/*'], message: 'Only src/db talks to PostgreSQL: add a repository method there.' },
          { group: ['**/db/schema', '**/db/schema/*'], allowTypeImports: true, message: 'Only src/db reads or writes tables: import types only, or add a repository method.' },
        ],
      }],
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.property.name='database'][property.name=/^(db|pool)$/]",
        message: 'Only src/db talks to PostgreSQL: add a repository method there.',
      }],
    },
  },
  {
    files: ['src/stages/**/*.ts', 'src/builders/**/*.ts', 'src/review/plan-decision.ts', 'src/review/resume-routing.ts', 'src/review/pending-review.ts', 'src/review/edit-validation.ts', 'src/run-states.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PURE] }] },
  },
  {
    // The builder must not be able to reach quarantined example values, even by import.
    files: ['src/builders/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [PURE, { group: ['**/example-quarantine*', '**/leak-firewall*', '**/fragments/*'], message: 'Builders never see example values (zero trust).' }],
      }],
    },
  },
);
