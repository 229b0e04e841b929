// Flat config. Beyond the recommended rules it enforces the layering that matters most:
//  - pure stage logic never imports a queue, a database, an HTTP framework or a provider SDK;
//  - only src/db talks to PostgreSQL (pg, drizzle-orm, the tables): everyone else goes through its repositories;
//  - only the composition roots import src/db, src/queue or src/adapters (type imports included): every other room
//    owns a port (an interface) and the roots inject the implementation;
//  - the engine and what sits below it (stages, builders, the pure review model in src/review-model) never import the
//    review services (src/review), which sit above the engine;
//  - every switch over a union (a status, a stage, a move, an outcome, an action) names every member.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IO_PACKAGES = ['bullmq', 'ioredis', 'drizzle-orm', 'drizzle-orm/*', 'pg', 'fastify', 'openai', 'openai/*', 'replicate'];
const PURE = { group: IO_PACKAGES, message: 'Stage logic is pure: do I/O in the engine (src/engine), api/ or src/adapters.' };
/** The review services sit above the engine: what the engine needs of a review lives in src/review-model. */
export const REVIEW_SERVICES_PATTERN = {
  group: ['**/review', '**/review/**'],
  message: 'The review services (src/review) sit above the engine: the engine, the stages, the builders and the review model import src/review-model instead.',
};
/** Application code: src/ (but for src/db and the generated types), api/ and workers/. */
const APP_FILES = ['src/**/*.ts', 'api/**/*.ts', 'workers/**/*.ts'];
/** The composition roots: the only application files that may import the drivers (database, queue, adapters). */
export const COMPOSITION_ROOTS = [
  'src/system.ts', 'src/index.ts', 'src/embedded/**', 'src/cli/local-root.ts', 'src/db/**', 'src/queue/**', 'src/adapters/**', 'src/sim/**', 'workers/**',
];
const POSTGRES_PATTERN = { group: ['pg', 'drizzle-orm', 'drizzle-orm/*'], message: 'Only src/db talks to PostgreSQL: add a repository method there.' };
const SCHEMA_PATTERN = { group: ['**/db/schema', '**/db/schema/*'], allowTypeImports: true, message: 'Only src/db reads or writes tables: import types only, or add a repository method.' };
const DATABASE_MEMBER = {
  selector: "MemberExpression[object.property.name='database'][property.name=/^(db|pool)$/]",
  message: 'Only src/db talks to PostgreSQL: add a repository method there.',
};
/** No allowTypeImports: a type import is still a dependency on the driver's shape. */
export const DRIVER_PATTERN = {
  group: ['**/db', '**/db/**', '**/queue', '**/queue/**', '**/adapters', '**/adapters/**'],
  message: 'Only the composition roots (src/system.ts, src/embedded, workers, ...) import src/db, src/queue or src/adapters: declare a port in this room and inject the implementation from a root.',
};

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
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [POSTGRES_PATTERN, SCHEMA_PATTERN] }],
      'no-restricted-syntax': ['error', DATABASE_MEMBER],
    },
  },
  {
    // Drivers only in the roots. Same rule name as the block above, so this replaces it for these files: the schema's
    // type-import allowance is left out on purpose (it would let `import type` from src/db through).
    files: APP_FILES,
    // No exemptions: a room that needs a driver declares a port, and a root injects the implementation.
    ignores: COMPOSITION_ROOTS,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [POSTGRES_PATTERN, DRIVER_PATTERN] }],
      // A dynamic import() is still an import; listed with the database rule above, which this block replaces.
      'no-restricted-syntax': ['error', DATABASE_MEMBER, {
        selector: 'ImportExpression > Literal[value=/(^|\\x2F)(db|queue|adapters)(\\x2F|$)/]',
        message: DRIVER_PATTERN.message,
      }],
    },
  },
  {
    // Below the review services: the engine may do I/O, but never reaches up into src/review.
    files: ['src/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [REVIEW_SERVICES_PATTERN] }] },
  },
  {
    files: ['src/stages/**/*.ts', 'src/builders/**/*.ts', 'src/review-model/**/*.ts', 'src/run-states.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PURE, REVIEW_SERVICES_PATTERN] }] },
  },
  {
    // The builder must not be able to reach quarantined example values, even by import.
    files: ['src/builders/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [PURE, REVIEW_SERVICES_PATTERN, { group: ['**/example-quarantine*', '**/leak-firewall*', '**/fragments/*'], message: 'Builders never see example values (zero trust).' }],
      }],
    },
  },
);
