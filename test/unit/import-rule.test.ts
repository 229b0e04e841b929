/**
 * The one rule that keeps the layers: only the composition roots import src/db, src/queue or src/adapters, type
 * imports and dynamic import() included. These tests lint synthetic files through ESLint's own API with the
 * project's config, so they fail if the rule stops biting. There are no exemptions: every file outside the roots
 * is held to the rule.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The config is plain JavaScript with no declarations: imported through a path the compiler does not follow. */
const configPath = `${root}/eslint.config.js`;
const { COMPOSITION_ROOTS } = (await import(configPath)) as { COMPOSITION_ROOTS: string[] };
/** Only the import rules: they need no type information, so synthetic paths that no tsconfig holds lint fine. */
const IMPORT_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-imports', 'no-restricted-syntax']);

function eslint(): ESLint {
  return new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => IMPORT_RULES.has(ruleId),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
}

async function driverErrors(text: string, filePath: string): Promise<string[]> {
  const [result] = await eslint().lintText(text, { filePath: `${root}/${filePath}` });
  return result!.messages.filter((m) => m.message.includes('composition roots')).map((m) => m.message);
}

describe('the driver import rule', () => {
  it('reports a type import of the database schema from the engine', async () => {
    const errors = await driverErrors(
      "import type { RunRow } from '../db/schema/index.ts';\nexport type Row = RunRow;\n",
      'src/engine/synthetic-import.ts',
    );
    expect(errors).toHaveLength(1);
  });

  it('reports a route importing the queue and an adapter', async () => {
    const errors = await driverErrors(
      "import { queueNames } from '../../src/queue/queues.ts';\nimport type { AdapterRegistry } from '../../src/adapters/registry.ts';\n" +
        'export const names: unknown = queueNames;\nexport type Registry = AdapterRegistry;\n',
      'api/routes/synthetic-import.ts',
    );
    expect(errors).toHaveLength(2);
  });

  it('reports a dynamic import() of a driver', async () => {
    const errors = await driverErrors(
      "export async function load(): Promise<unknown> {\n  return import('../db/preflight.ts');\n}\n",
      'src/cli/synthetic-import.ts',
    );
    expect(errors).toHaveLength(1);
  });

  it('lets a composition root import the drivers', async () => {
    const text = "import type { RunRow } from './db/schema/index.ts';\nimport { queueNames } from './queue/queues.ts';\n" +
      'export type Row = RunRow;\nexport const names: unknown = queueNames;\n';
    expect(await driverErrors(text, 'src/system.ts')).toEqual([]);
    expect(await driverErrors(text.replaceAll('./', '../src/'), 'workers/synthetic-import.ts')).toEqual([]);
  });

  it("lets the command line's light root load the adapters and the preflight, and no other command", async () => {
    const text = "export async function load(): Promise<unknown> {\n  return [await import('../adapters/registry.ts'), await import('../db/preflight.ts')];\n}\n";
    expect(COMPOSITION_ROOTS).toContain('src/cli/local-root.ts');
    expect(await driverErrors(text, 'src/cli/local-root.ts')).toEqual([]);
    expect(await driverErrors(text, 'src/cli/commands/synthetic-import.ts')).toHaveLength(2);
  });

  it('leaves an import of an ordinary room alone', async () => {
    const errors = await driverErrors(
      "import type { RunStore } from './store.ts';\nexport type Store = RunStore;\n",
      'src/engine/synthetic-import.ts',
    );
    expect(errors).toEqual([]);
  });
});

async function reviewLayerErrors(text: string, filePath: string): Promise<string[]> {
  const [result] = await eslint().lintText(text, { filePath: `${root}/${filePath}` });
  return result!.messages.filter((m) => m.message.includes('review services')).map((m) => m.message);
}

describe('the review layering rule', () => {
  const decideImport = "import { decide } from '../review/decide-on-run.ts';\nexport const run: unknown = decide;\n";

  it('reports the engine importing a review service', async () => {
    expect(await reviewLayerErrors(decideImport, 'src/engine/synthetic-import.ts')).toHaveLength(1);
  });

  it('reports the review model and a stage reaching up into the review services, type imports included', async () => {
    const typeImport = "import type { ReplyOption } from '../review/reply/types.ts';\nexport type Option = ReplyOption;\n";
    expect(await reviewLayerErrors(typeImport, 'src/review-model/synthetic-import.ts')).toHaveLength(1);
    expect(await reviewLayerErrors(typeImport, 'src/stages/synthetic-import.ts')).toHaveLength(1);
  });

  it('lets the engine import the review model, and the review services import the engine', async () => {
    const modelImport = "import { createPendingReview } from '../review-model/pending-review.ts';\nexport const create: unknown = createPendingReview;\n";
    expect(await reviewLayerErrors(modelImport, 'src/engine/synthetic-import.ts')).toEqual([]);
    const engineImport = "import { commit } from '../engine/commit.ts';\nexport const move: unknown = commit;\n";
    expect(await reviewLayerErrors(engineImport, 'src/review/synthetic-import.ts')).toEqual([]);
  });
});
