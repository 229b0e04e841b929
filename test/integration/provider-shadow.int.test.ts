/**
 * Shadow mode and the leak firewall on a fal endpoint and an OpenAI operation, through the real queues and
 * the official SDKs against the local servers, as for Replicate: a shadowed run executes the V3 payload, with
 * no published example value in it (the servers' own logs show what was sent); its report names every example
 * value V2 (the published examples merged with the builder's output) would have sent; a run whose required
 * input nobody gave parks instead of taking the example's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE_NAMES } from '../../src/engine/stages.ts';
import type { ShadowReportRow } from '../../src/db/schema/index.ts';
import { SIM_FAL_KEY, SIM_OPENAI_API_KEY, startFalSim, startOpenAiSim, type FalSim, type OpenAiSim } from '../../src/sim/index.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { settle, submit } from '../support/pipeline.ts';
import { FAL_IMAGE_EXAMPLE, falImageToImage, providerModelFile } from '../support/provider-documents.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

let fal: FalSim;
let openai: OpenAiSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  fal = await startFalSim({ apiKey: SIM_FAL_KEY });
  openai = await startOpenAiSim();
  system = await createTestSystem({
    FAL_KEY: SIM_FAL_KEY, FAL_BASE_URL: fal.baseUrl, VETTED_FAL_POLL_MS: '10',
    OPENAI_API_KEY: SIM_OPENAI_API_KEY, OPENAI_BASE_URL: openai.baseUrl, VETTED_BUILDER: 'heuristic',
  });
  workers = startWorkers(system, { kinds: [...STAGE_NAMES, 'shadow'] });
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await Promise.allSettled([fal?.close(), openai?.close()]);
});

async function reportOf(runId: string): Promise<ShadowReportRow> {
  return eventually(async () => (await system.shadowReports.listForRun(runId))[0], 20_000, `the shadow report of ${runId}`);
}

const sentToFal = (text: string) => fal.submitted().filter((entry) => JSON.stringify(entry.input).includes(text));

describe('a fal endpoint', () => {
  it('a shadowed run sends the user\'s image to fal; the report finds nothing on either side', async () => {
    const photo = 'https://files.acme.test/harbour.png';
    const run = await settle(system, (await submit(system, { modelSource: falImageToImage, prompt: 'my harbour photo as a watercolor', edits: { image_url: photo }, shadow: true })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'fal' });
    const [sent] = sentToFal('my harbour photo');
    expect(sent?.input).toMatchObject({ image_url: photo });
    expect(JSON.stringify(sent?.input)).not.toContain('fal.media');
    expect(await reportOf(run.id)).toMatchObject({ status: 'ok', leakCount: 0, v3LeakCount: 0 });
  });

  it('a run without the required image parks and sends nothing; V2 would have sent the published example image', async () => {
    const run = await settle(system, (await submit(system, { modelSource: falImageToImage, prompt: 'a watercolor of the old mill', shadow: true })).id);
    expect(run).toMatchObject({ status: 'awaiting_human' });
    expect(sentToFal('the old mill')).toEqual([]);
    const report = await reportOf(run.id);
    expect(report).toMatchObject({ status: 'ok', v3LeakCount: 0 });
    expect(report.v2Payload).toMatchObject({ image_url: FAL_IMAGE_EXAMPLE });
    expect(report.leakedFields).toContain('image_url');
    expect(report.leaks).toContainEqual(expect.objectContaining({ path: '/image_url', exampleValue: FAL_IMAGE_EXAMPLE }));
  });
});

describe('an OpenAI operation', () => {
  it('a shadowed run calls OpenAI without the published end-user id or model; the report names both as V2 leaks', async () => {
    const run = await settle(system, (await submit(system, { modelSource: providerModelFile('openai-create-image.provider.json'), prompt: 'a paper boat on a rainy street', shadow: true })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'openai' });
    const called = openai.executions.filter((entry) => JSON.stringify(entry.body).includes('a paper boat'));
    expect(called).toHaveLength(1);
    expect(JSON.stringify(called[0]?.body)).not.toMatch(/user-7f3a9c21|gpt-image-1|tabby cat/);
    const report = await reportOf(run.id);
    expect(report).toMatchObject({ status: 'ok', v3LeakCount: 0 });
    expect(report.v2Payload).toMatchObject({ user: 'user-7f3a9c21', model: 'gpt-image-1' });
    expect(report.leakedFields).toEqual(expect.arrayContaining(['model', 'user']));
  });
});
