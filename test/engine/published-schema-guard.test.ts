/**
 * The final guard: a field the model's published schema contradicts itself on is marked at
 * extraction, left out by the builders, and parks the run as `schema_unsatisfiable` when the request sets it;
 * and the execute stage never runs a payload the published schema rejects, even one a person approved with
 * the override permission. On the in-process engine (memory store, the same stage table as the workers).
 */
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import { createInProcessEngine } from '../../src/engine/in-process.ts';
import { drain } from '../../src/engine/in-process-runner.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import { decide } from '../../src/review/decide-on-run.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';

/** mistake0316/style-transfer-clip's shape: a boolean whose enum is strings, so nothing fits it. */
const STYLE_TRANSFER = {
  owner: 'mistake0316',
  name: 'style-transfer-clip',
  latest_version: {
    id: 'v1',
    openapi_schema: {
      openapi: '3.0.2',
      components: {
        schemas: {
          Input: {
            type: 'object',
            required: ['prompt'],
            properties: {
              prompt: { type: 'string', 'x-order': 0 },
              resize_flag: { enum: ['True', 'False'], type: 'boolean', default: true, 'x-order': 1, description: 'resize image or not' },
              steps: { type: 'integer', default: 10, minimum: 1, maximum: 50, 'x-order': 2 },
            },
          },
        },
      },
    },
  },
  default_example: { input: { prompt: 'a painting' } },
};
const MODEL = 'mistake0316/style-transfer-clip';
const TENANT = 'guard';

async function engineWithModel() {
  const config = loadConfig({});
  const engine = createInProcessEngine({ config, adapters: createAdapterRegistry(config) });
  await registerModel(engine, { tenantId: TENANT, source: STYLE_TRANSFER });
  const settle = async (id: string) => {
    await drain(engine);
    return (await engine.store.get(id))!;
  };
  const submit = async (request: Record<string, unknown>) => (await submitRun(engine, { tenantId: TENANT, request: { model: MODEL, ...request }, actor: 'test' })).run;
  return { engine, settle, submit };
}

describe('a field the published schema contradicts itself on', () => {
  it('is marked with the contradiction and a warning, and kept out of required', () => {
    const { modelSchema } = extractModelSchema(STYLE_TRANSFER);
    const field = modelSchema.fields.find((f) => f.name === 'resize_flag');
    expect(field?.unsatisfiable).toMatch(/type boolean, but every allowed value is a string: "True", "False"/);
    expect(modelSchema.warnings).toContainEqual(expect.objectContaining({ path: 'resize_flag', code: 'unsatisfiable_field' }));
    expect(modelSchema.publishedSchema).toMatchObject({ properties: { resize_flag: { type: 'boolean', enum: ['True', 'False'] } } });
  });

  it('refuses a model whose required field nothing satisfies', () => {
    const input = STYLE_TRANSFER.latest_version.openapi_schema.components.schemas.Input;
    const broken = structuredClone(STYLE_TRANSFER);
    broken.latest_version.openapi_schema.components.schemas.Input = { ...input, required: ['prompt', 'resize_flag'] };
    expect(() => extractModelSchema(broken)).toThrow(expect.objectContaining({ code: 'SCHEMA_UNSUPPORTED', field: 'resize_flag', details: { construct: 'unsatisfiable' } }));
  });

  it('is left out by the builder, so the run executes on the model’s own default', async () => {
    const { settle, submit } = await engineWithModel();
    const run = await settle((await submit({ prompt: 'a lighthouse' })).id);
    expect(run.status).toBe('completed');
    expect(run.candidate?.payload).toEqual({ prompt: 'a lighthouse', steps: 10 });
    expect(run.candidate?.notes?.join('\n')).toContain('resize_flag is left out');
  });

  it('parks the run naming the contradiction when the request sets it', async () => {
    const { settle, submit } = await engineWithModel();
    const run = await settle((await submit({ prompt: 'a lighthouse', edits: { resize_flag: false } })).id);
    expect(run.status).toBe('awaiting_human');
    expect(run.pendingReview).toMatchObject({ reason: 'validation_failed', expectedInput: 'yes_no', question: 'resize_flag cannot be set for this model. Shall I run your request without it?' });
    expect(run.pendingReview?.issues).toContainEqual(
      expect.objectContaining({ path: '/resize_flag', code: 'schema_unsatisfiable', severity: 'blocking', message: expect.stringContaining('contradicts itself') }),
    );
  });

  it('never executes a payload the published schema rejects, even approved with the override permission', async () => {
    const { engine, settle, submit } = await engineWithModel();
    const parked = await settle((await submit({ prompt: 'a lighthouse', edits: { resize_flag: false } })).id);
    await decide(engine, {
      runId: parked.id,
      body: { reviewId: parked.pendingReviewId, payloadHash: parked.pendingReview?.payloadHash, action: 'approve', override: true },
      actor: { id: 'person:ada', canOverride: true },
    });
    const after = await settle(parked.id);
    expect(after.status).toBe('awaiting_human');
    expect(after.pendingReview?.summary).toContain("published input schema rejects this payload (resize_flag)");
    expect(await engine.store.ledger.listForRun(parked.id)).toEqual([]);
  });

  it('a "yes" to running without it removes the field, and the run executes', async () => {
    const { engine, settle, submit } = await engineWithModel();
    const parked = await settle((await submit({ prompt: 'a lighthouse', edits: { resize_flag: false } })).id);
    const review = parked.pendingReview!;
    await decide(engine, { runId: parked.id, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { resize_flag: null } }, actor: { id: 'person:ada', canOverride: false } });
    const done = await settle(parked.id);
    expect(done.status).toBe('completed');
    expect(done.candidate?.payload).not.toHaveProperty('resize_flag');
  });
});
