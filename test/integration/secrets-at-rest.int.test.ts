/**
 * Secrets at rest: a model's secret-role input (`studio_pass`, `format: password`, a name no credential
 * pattern knows) is sealed with VETTED_DATA_KEY wherever it is stored, reaches the provider in clear, and is
 * masked in API answers, events and logs. `vetted secrets rotate` re-seals everything under a new key, and the
 * provider still gets the value. In production without a key, such a value is refused naming the field.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import type { ExecutionRequest, ModelProvider } from '../../src/ports.ts';
import { decide } from '../../src/review/decide-on-run.ts';
import { createSystem, type System } from '../../src/system.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { exampleModel, settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const MODEL = 'acme/vault';
const BIN = path.resolve(import.meta.dirname, '../../bin/vetted.mjs');

/** flux-schnell with one more input: a password-format field with an ordinary name. */
function vaultModel(): Record<string, unknown> {
  const source = structuredClone(exampleModel('flux-schnell.model.json')) as { owner: string; name: string; latest_version: { openapi_schema: { components: { schemas: { Input: { properties: Record<string, unknown> } } } } } };
  source.owner = 'acme';
  source.name = 'vault';
  source.latest_version.openapi_schema.components.schemas.Input.properties.studio_pass = { type: 'string', format: 'password', title: 'Studio pass', 'x-order': 99 };
  return source;
}

/** The dry provider's behaviour (it echoes its input), recording what it was given. */
const seen: ExecutionRequest[] = [];
const recording: ModelProvider = {
  name: 'dry',
  sideEffectFree: true,
  async execute(request) {
    seen.push(request);
    return { provider: 'dry', status: 'succeeded', output: { input: request.payload } };
  },
};

let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  system = await createTestSystem({ VETTED_DATA_KEY: K1, VETTED_DATA_KEY_ID: 'k1', LOG_LEVEL: 'debug' }, { adapters: { providers: { dry: recording } } });
  workers = startStageWorkers(system);
  await registerModel(system, { tenantId: TENANT, source: vaultModel() });
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
});

async function everyTableText(target: System): Promise<string> {
  const { rows } = await target.database.pool.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public'`);
  let text = '';
  for (const { name } of rows) text += (await target.database.pool.query<{ row: string }>(`select t::text as row from "${name}" t`)).rows.map((r) => r.row).join('\n');
  return text;
}

const reviewer = { id: 'reviewer:ada', canOverride: false };

describe('secrets at rest', () => {
  it('seals secret-role values in every table, opens them only for the provider, masks them in answers, events and logs', async () => {
    const direct = await settle(system, (await submit(system, { model: MODEL, prompt: 'a vault door', edits: { studio_pass: 'PLAINSECRET-one' } })).id, ['completed']);
    expect(seen.at(-1)?.payload.studio_pass).toBe('PLAINSECRET-one');

    const parked = await settle(system, (await submit(system, { model: MODEL, prompt: 'a locked safe', policy: 'require_human' })).id, ['awaiting_human']);
    await decide(system, { runId: parked.id, tenantId: TENANT, actor: reviewer, body: { reviewId: parked.pendingReview!.reviewId, action: 'edit', edits: { studio_pass: 'PLAINSECRET-two' } } });
    await settle(system, parked.id, ['completed']);
    expect(seen.at(-1)?.payload.studio_pass).toBe('PLAINSECRET-two');

    const stored = await everyTableText(system);
    expect(stored).not.toContain('PLAINSECRET');
    expect(stored).toContain('vetted:enc:v1:k1:');
    // The stored row holds the sealed value; the result (the provider's echo) is sealed again.
    const row = (await system.store.get(direct.id))!;
    expect(row.candidate?.payload.studio_pass).toMatch(/^vetted:enc:v1:k1:/);
    expect(JSON.stringify(row.result)).toContain('vetted:enc:v1:k1:');

    const app = await buildApp(system);
    try {
      const key = (await system.apiKeys.create({ tenantId: TENANT, role: 'admin' })).key;
      for (const url of [`/api/runs/${direct.id}/state`, `/api/runs/${parked.id}/state`, `/api/runs/${direct.id}`]) {
        const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
        expect(response.statusCode).toBe(200);
        expect(response.body).not.toMatch(/PLAINSECRET|vetted:enc/);
        expect(response.body).toContain('[redacted]');
      }
    } finally {
      await app.close();
    }
    const logs = JSON.stringify(system.logs);
    expect(logs).not.toMatch(/PLAINSECRET|vetted:enc/);
  });

  it('vetted secrets rotate re-seals everything under the new key; the provider still gets the value', async () => {
    const waiting = await settle(system, (await submit(system, { model: MODEL, prompt: 'a vault at dusk', policy: 'require_human', edits: { studio_pass: 'PLAINSECRET-three' } })).id, ['awaiting_human']);
    await workers.close();

    const rotated = await createSystem(
      loadConfig({ DATABASE_URL: system.config.databaseUrl, REDIS_URL: system.config.redisUrl, VETTED_QUEUE_PREFIX: system.config.queuePrefix, LOG_LEVEL: 'silent', VETTED_DATA_KEY: K2, VETTED_DATA_KEY_ID: 'k2', VETTED_DATA_KEYS_PREVIOUS: `k1:${K1}` }),
      { migrate: false, adapters: { providers: { dry: recording } } },
    );
    const rotatedWorkers = startStageWorkers(rotated);
    try {
      const report = await rotated.rotateSealedValues();
      // The requests' edits and the candidates are documents (run_documents); the pending reviews are on runs.
      expect(report.resealed.run_documents).toBeGreaterThanOrEqual(3);
      expect(report.resealed.runs).toBeGreaterThan(0);
      expect(report.resealed.decisions).toBeGreaterThan(0);
      expect(report.resealed.executions).toBeGreaterThan(0);
      const after = await everyTableText(rotated);
      expect(after).not.toContain('vetted:enc:v1:k1:');
      expect(after).toContain('vetted:enc:v1:k2:');
      expect(after).not.toContain('PLAINSECRET');
      const again = await rotated.rotateSealedValues();
      expect(Object.values(again.resealed).every((n) => n === 0)).toBe(true);
      // The command, as a process: nothing left to re-seal.
      const env = { ...process.env, DATABASE_URL: system.config.databaseUrl, VETTED_QUEUE_PREFIX: system.config.queuePrefix, LOG_LEVEL: 'warn', VETTED_DATA_KEY: K2, VETTED_DATA_KEY_ID: 'k2', VETTED_DATA_KEYS_PREVIOUS: `k1:${K1}` };
      const { stdout } = await promisify(execFile)('node', [BIN, 'secrets', 'rotate'], { env });
      expect(stdout).toMatch(/^runs: 0 re-sealed under k2 \(\d+ hold sealed values\)$/m);

      const run = (await rotated.store.get(waiting.id))!;
      await decide(rotated, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: run.pendingReview!.reviewId, action: 'approve' } });
      await settle(rotated, run.id, ['completed']);
      expect(seen.at(-1)?.payload.studio_pass).toBe('PLAINSECRET-three');
    } finally {
      await rotatedWorkers.close();
      await rotated.close();
    }
  });

  it('in production without a data key, a secret-role value is refused naming the field (a request fails, a decision is 422)', async () => {
    const production = await createTestSystem({ VETTED_PRODUCTION: 'true' });
    const productionWorkers = startStageWorkers(production);
    try {
      await registerModel(production, { tenantId: TENANT, source: vaultModel() });
      const failed = await settle(production, (await submit(production, { model: MODEL, prompt: 'a vault', edits: { studio_pass: 'PLAINSECRET-four' } })).id, ['failed']);
      expect(failed.error).toMatchObject({ code: 'DATA_KEY_MISSING', field: 'edits.studio_pass' });
      expect(failed.error?.message).toContain('VETTED_DATA_KEY');

      const parked = await settle(production, (await submit(production, { model: MODEL, prompt: 'a vault', policy: 'require_human' })).id, ['awaiting_human']);
      const refused = decide(production, { runId: parked.id, tenantId: TENANT, actor: reviewer, body: { reviewId: parked.pendingReview!.reviewId, action: 'edit', edits: { studio_pass: 'PLAINSECRET-five' } } });
      await expect(refused).rejects.toMatchObject({ code: 'DATA_KEY_MISSING', field: 'edits.studio_pass', status: 422 });
      expect(await everyTableText(production)).not.toContain('PLAINSECRET-five');
    } finally {
      await productionWorkers.close();
      await production.dispose();
    }
  });
});
