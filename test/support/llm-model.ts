/**
 * A small language model for tests of text outputs: a prompt in, a list of text tokens out (the way Replicate's
 * LLMs answer), registered with the local Replicate-compatible server and the catalog under LLM.
 */
import { registerModel } from '../../src/catalog/model-catalog.ts';
import type { ReplicateSim } from '../../src/sim/index.ts';
import type { System } from '../../src/system.ts';
import { exampleModel } from './pipeline.ts';

export const LLM = 'acme/tiny-llm';

export function llmModel(): Record<string, unknown> {
  const flux = exampleModel('flux-schnell.model.json') as { latest_version: Record<string, unknown> };
  return {
    ...flux, owner: 'acme', name: 'tiny-llm', url: 'https://replicate.com/acme/tiny-llm', description: 'A tiny language model',
    latest_version: {
      ...flux.latest_version, id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
      openapi_schema: {
        openapi: '3.0.2', info: { title: 'Cog', version: '0.1.0' }, paths: {},
        components: {
          schemas: {
            Input: {
              type: 'object', title: 'Input', required: ['prompt'],
              properties: {
                prompt: { type: 'string', title: 'Prompt', description: 'What to answer', 'x-order': 0 },
                max_new_tokens: { type: 'integer', title: 'Max New Tokens', description: 'How many tokens to write at most', default: 64, minimum: 1, maximum: 512, 'x-order': 1 },
              },
            },
            Output: { type: 'array', items: { type: 'string' }, title: 'Output', 'x-cog-array-type': 'iterator', 'x-cog-array-display': 'concatenate' },
          },
        },
      },
    },
  };
}

/** Publishes the model on the local Replicate server and adds it to the tenant's catalog. */
export async function registerLlm(system: System, replicate: ReplicateSim, tenantId: string): Promise<void> {
  const model = llmModel() as { latest_version: { id: string; openapi_schema: Record<string, unknown> } };
  replicate.catalog.addVersion(LLM, { id: model.latest_version.id, openapi_schema: model.latest_version.openapi_schema });
  await registerModel(system, { tenantId, source: model });
}
