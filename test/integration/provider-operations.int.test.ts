/**
 * A model its provider cannot run (an OpenAI embeddings operation) is refused where it enters: at submission
 * and by `vetted models add`, naming the operation, with nothing stored; never later, at execute.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import { IN_FLIGHT_STATUSES, TERMINAL_STATUSES } from '../../src/run-states.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const TENANT = 'operations';
const image = JSON.parse(readFileSync(new URL('../../examples/providers/openai-create-image.provider.json', import.meta.url), 'utf8')) as { openapi: { paths: Record<string, unknown> } };
/** OpenAI's published document with its embeddings operation beside the image one. */
const embedding = {
  ...image,
  operation: 'createEmbedding',
  openapi: {
    ...image.openapi,
    paths: {
      ...image.openapi.paths,
      '/embeddings': {
        post: {
          operationId: 'createEmbedding',
          requestBody: { required: true, content: { 'application/json': { schema: {
            type: 'object', required: ['input', 'model'],
            properties: { input: { type: 'string', example: 'The quick brown fox' }, model: { type: 'string', example: 'text-embedding-3-small' } },
          } } } },
          responses: {},
        },
      },
    },
  },
};
let system: TestSystem;

beforeAll(async () => {
  // A provider key so the openai provider is configured: the refusal is about the operation, not the key.
  system = await createTestSystem({ OPENAI_API_KEY: 'sk-operations-test-key', VETTED_BUILDER: 'heuristic' });
});

afterAll(async () => {
  await system?.dispose();
});

describe('an operation the provider does not run', () => {
  it('is refused at submit, naming the operation and what the provider runs; no run is stored', async () => {
    const runs = () => system.store.list({ kind: 'recent', statuses: [...IN_FLIGHT_STATUSES, ...TERMINAL_STATUSES, 'awaiting_human'], tenantId: TENANT, limit: 100 });
    const before = (await runs()).length;
    await expect(submitRun(system, { tenantId: TENANT, request: { modelSource: embedding, prompt: 'embed this sentence' }, actor: 'test' })).rejects.toMatchObject({
      code: 'MODEL_SOURCE_INVALID',
      field: 'modelSource.operation',
      message: expect.stringMatching(/operation "createEmbedding" is not one the openai provider runs; it runs createImage, .*createChatCompletion/),
    });
    expect(await runs()).toHaveLength(before);
  });

  it('is still accepted for the dry provider, which calls nothing, and an operation it runs is accepted', async () => {
    const dry = await submitRun(system, { tenantId: TENANT, request: { modelSource: embedding, provider: 'dry', prompt: 'embed this sentence' }, actor: 'test' });
    expect(dry.run.provider).toBe('dry');
    const runnable = await submitRun(system, { tenantId: TENANT, request: { modelSource: image, prompt: 'a red kite' }, actor: 'test' });
    expect(runnable.run.provider).toBe('openai');
  });

  it('is refused by registration, so the catalog never maps it', async () => {
    await expect(registerModel(system, { tenantId: TENANT, source: embedding })).rejects.toMatchObject({ code: 'MODEL_SOURCE_INVALID', field: 'operation', message: expect.stringContaining('"createEmbedding"') });
    expect(await system.models.resolveRef(TENANT, 'openai/createEmbedding')).toBeUndefined();
  });

  it('vetted models add exits 2 with the reason', async () => {
    const file = path.join(tmpdir(), `vetted-embedding-${process.pid}.provider.json`);
    writeFileSync(file, JSON.stringify(embedding));
    const env = { ...process.env, DATABASE_URL: system.config.databaseUrl, VETTED_QUEUE_PREFIX: system.config.queuePrefix, LOG_LEVEL: 'warn' };
    const failed = await promisify(execFile)('node', [path.resolve('bin/vetted.mjs'), 'models', 'add', file, '--tenant', TENANT], { env, timeout: 60_000 })
      .then(() => undefined, (error: unknown) => error as { code: number; stderr: string });
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('operation "createEmbedding" is not one the openai provider runs');
    expect(await system.models.resolveRef(TENANT, 'openai/createEmbedding')).toBeUndefined();
  });
});
