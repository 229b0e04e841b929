/**
 * OPENAI_API_KEY and REPLICATE_API_TOKEN come from the environment and go to the APIs, nowhere else: after
 * runs through both adapters (completed, parked, failed, retried, fetched from Replicate, even a user pasting a
 * key into the prompt), no table of the database and no log line holds either key, or a piece of one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/review/decide-on-run.ts';
import { startOpenAiSim, startReplicateSim, type OpenAiSim, type ReplicateSim } from '../../src/sim/index.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { registerExamples, settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const OPENAI_KEY = 'sk-proj-VETTEDSECRET-openai-QzXwVy';
const REPLICATE_KEY = 'r8_VETTEDSECRET_replicate_KjHgFd';
/** The keys, and pieces a masked echo ("sk-proj-…QzXwVy") would keep. */
const NEEDLES = [OPENAI_KEY, REPLICATE_KEY, 'VETTEDSECRET', 'QzXwVy', 'KjHgFd'];

let openai: OpenAiSim;
let replicate: ReplicateSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  openai = await startOpenAiSim();
  replicate = await startReplicateSim({ stepMs: 20, apiToken: REPLICATE_KEY });
  system = await createTestSystem({
    OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.baseUrl, VETTED_OPENAI_MAX_RETRIES: '0',
    REPLICATE_API_TOKEN: REPLICATE_KEY, REPLICATE_BASE_URL: replicate.baseUrl, VETTED_REPLICATE_POLL_MS: '10',
    LOG_LEVEL: 'trace',
  });
  workers = startStageWorkers(system);
  await registerExamples(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await Promise.all([openai?.close(), replicate?.close()]);
});

const reviewer = { id: 'reviewer:dana', canOverride: false };
const flux = 'black-forest-labs/flux-schnell';

describe('secrets', () => {
  it('reach the APIs and nothing else: no table, no event, no log line holds them', async () => {
    const settled = async (request: Record<string, unknown>, statuses?: Parameters<typeof settle>[2]) =>
      settle(system, (await submit(system, request)).id, statuses);

    expect((await settled({ model: flux, prompt: 'a quiet harbour' })).status).toBe('completed');
    expect((await settled({ model: 'stability-ai/sdxl', prompt: 'a fetched model' })).status).toBe('completed');
    expect((await settled({ model: flux, prompt: `my key is ${OPENAI_KEY} and ${REPLICATE_KEY}, draw a boat` })).status).toBe('completed');
    expect((await settled({ model: flux, prompt: 'a doomed sim:fail kite' }, ['failed'])).error?.code).toBe('PROVIDER_FAILED');
    expect((await settled({ model: 'nobody/nothing', prompt: 'x' }, ['failed'])).error?.code).toBe('MODEL_NOT_FOUND');
    replicate.failNextCreates(6);
    expect((await settled({ model: flux, prompt: 'a throttled gull' })).status).toBe('completed');

    const refused = await settled({ model: flux, prompt: 'a refused sim:refuse lamp' });
    expect(refused.pendingReview?.reason).toBe('builder_failed');
    await decide(system, { runId: refused.id, tenantId: TENANT, actor: reviewer, body: { reviewId: refused.pendingReview!.reviewId, action: 'reject', reason: 'no' } });

    const reviewed = await settled({ model: flux, prompt: 'a reviewed pier', policy: { mode: 'auto', responseReview: true } });
    await decide(system, { runId: reviewed.id, tenantId: TENANT, actor: reviewer, body: { reviewId: reviewed.pendingReview!.reviewId, action: 'approve' } });

    // The keys really were used: the sims saw them (the replicate sim refuses any other token).
    expect(openai.requests.some((request) => request.apiKey === OPENAI_KEY)).toBe(true);
    expect(replicate.requests.length).toBeGreaterThan(0);
    expect(replicate.requests.every((request) => request.token === REPLICATE_KEY)).toBe(true);

    const tables = await tableNames();
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['runs', 'run_events', 'executions', 'decisions', 'model_schemas', 'model_examples', 'models']));
    let everything = '';
    for (const { schema, name } of tables) {
      const table = `"${schema}"."${name}"`;
      const { rows } = await system.database.pool.query<{ row: string }>(`select t::text as row from ${table} t`);
      const text = rows.map((r) => r.row).join('\n');
      for (const needle of NEEDLES) expect(text.includes(needle), `${needle} in table ${table}`).toBe(false);
      everything += text;
    }
    // Control: the keys the user pasted into a prompt were there to find, and were scrubbed.
    expect(everything).toContain('my key is [redacted] and [redacted], draw a boat');
    expect(system.logs.length).toBeGreaterThan(20);
    const logs = JSON.stringify(system.logs);
    for (const needle of NEEDLES) expect(logs.includes(needle), `${needle} in the logs`).toBe(false);
  }, 120_000);
});

/** Every table of the test database, in any schema (drizzle keeps its journal in its own). */
async function tableNames(): Promise<{ schema: string; name: string }[]> {
  const { rows } = await system.database.pool.query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  return rows;
}
