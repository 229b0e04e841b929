/**
 * A response review of a text output, over HTTP on real services with the Replicate SDK pointed at the local
 * Replicate-compatible server: the reviewer edits the text and accepts it (edit_text, bound to the output's hash),
 * the run's result and the signed webhook carry the edited text as the output the upstream app gets, with the
 * provider's kept beside it; a stale hash and an output that is not text are refused naming the field; "retry
 * with changes" runs an edited payload again in one decision, as a new execution.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplicateSim, type ReplicateSim } from '../../src/sim/index.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { LLM, registerLlm } from '../support/llm-model.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

const TOKEN = 'r8_int_edit_text_token_0042';
let replicate: ReplicateSim;
let api: ApiHarness;
let receiver: Server;
const deliveries: Record<string, unknown>[] = [];

beforeAll(async () => {
  replicate = await startReplicateSim({ stepMs: 10, apiToken: TOKEN });
  api = await createApiHarness({ REPLICATE_API_TOKEN: TOKEN, REPLICATE_BASE_URL: replicate.baseUrl, VETTED_REPLICATE_POLL_MS: '10', VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' });
  await registerLlm(api.system, replicate, 't1');
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      deliveries.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await api?.close();
  await replicate?.close();
});

async function submit(body: Record<string, unknown>): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

const callbackUrl = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
const responseReview = { mode: 'auto', responseReview: true };

describe('edit_text at a response review', () => {
  it('the upstream app gets the edited text, the provider output is kept beside it, and the webhook says which', async () => {
    const id = await submit({ model: LLM, prompt: 'name a colour', policy: responseReview, callbackUrl: callbackUrl() });
    const parked = await settle(api.system, id, ['awaiting_human']);
    const review = parked.pendingReview!;
    expect(review).toMatchObject({ checkpoint: 'response_review', output: ['Here is ', 'my answer to: ', 'name a colour'] });
    expect(review.actions?.map((o) => o.id)).toContain('edit_text');
    expect(review.outputHash).toMatch(/^[a-f0-9]{64}$/);

    const stale = await api.call('POST', `/api/runs/${id}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, action: 'edit_text', text: 'Blue.', outputHash: 'f'.repeat(64) } });
    expect(stale.statusCode).toBe(409);
    expect(json(stale)).toMatchObject({ field: 'outputHash' });
    const noText = await api.call('POST', `/api/runs/${id}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, action: 'edit_text', outputHash: review.outputHash } });
    expect(json(noText)).toMatchObject({ field: 'text' });

    const edited = await api.call('POST', `/api/runs/${id}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, action: 'edit_text', text: 'Blue.', outputHash: review.outputHash } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(json(edited)).toMatchObject({ route: 'complete' });
    const done = await settle(api.system, id, ['completed']);
    expect(done.result).toMatchObject({
      output: 'Blue.', outputSource: 'human_edit', providerOutput: ['Here is ', 'my answer to: ', 'name a colour'],
      outputEdit: { outputHash: review.outputHash, by: expect.stringMatching(/^key:/) },
    });
    const decision = (await api.system.store.decisions(id)).at(-1);
    expect(decision).toMatchObject({ action: 'edit_text', parsed: { route: 'complete', outputSource: 'human_edit' } });

    const completed = await eventually(async () => deliveries.find((d) => d.type === 'run.completed' && (d.run as { id: string }).id === id), 15_000, 'the run.completed webhook');
    expect(completed).toMatchObject({ data: { outputSource: 'human_edit' }, run: { result: { output: 'Blue.', outputSource: 'human_edit', providerOutput: ['Here is ', 'my answer to: ', 'name a colour'] } } });
    // The callback URL is the submitting app's: it sees the reviewer as a pseudonym, never a key id.
    expect(completed).toMatchObject({ run: { result: { outputEdit: { by: expect.stringMatching(/^hidden:[0-9a-f]{10}$/) } } } });
    expect(JSON.stringify(completed)).not.toMatch(/key:[a-z0-9]{12}/);
    expect((await api.call('GET', `/api/runs/${id}`, { key: api.keys.submitter })).json()).toMatchObject({ result: { output: 'Blue.', outputSource: 'human_edit' } });
  });

  it('an accepted output says it is the provider\'s; an output that is not text cannot be edited', async () => {
    const textRun = await submit({ model: LLM, prompt: 'say hi', policy: responseReview });
    const textParked = await settle(api.system, textRun, ['awaiting_human']);
    await api.call('POST', `/api/runs/${textRun}/decision`, { key: api.keys.reviewer, body: { reviewId: textParked.pendingReview!.reviewId, payloadHash: textParked.pendingReview!.payloadHash, action: 'approve' } });
    expect((await settle(api.system, textRun, ['completed'])).result).toMatchObject({ outputSource: 'provider', output: ['Here is ', 'my answer to: ', 'say hi'] });

    const imageRun = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse', policy: responseReview });
    const imageParked = await settle(api.system, imageRun, ['awaiting_human']);
    expect(imageParked.pendingReview!.actions?.map((o) => o.id)).not.toContain('edit_text');
    const refused = await api.call('POST', `/api/runs/${imageRun}/decision`, { key: api.keys.reviewer, body: { reviewId: imageParked.pendingReview!.reviewId, action: 'edit_text', text: 'x', outputHash: imageParked.pendingReview!.outputHash } });
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toMatchObject({ field: 'action' });
  });
});

describe('retry with changes at a response review', () => {
  it('runs the edited payload again as a new execution, in one decision', async () => {
    const id = await submit({ model: LLM, prompt: 'name a fruit', policy: responseReview });
    const parked = await settle(api.system, id, ['awaiting_human']);
    const retried = await api.call('POST', `/api/runs/${id}/decision`, {
      key: api.keys.reviewer, body: { reviewId: parked.pendingReview!.reviewId, payloadHash: parked.pendingReview!.payloadHash, action: 'retry', edits: { prompt: 'name a red fruit' } },
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(json(retried)).toMatchObject({ route: 'validate' });
    const again = await settle(api.system, id, ['awaiting_human']);
    expect(again.pendingReview?.reviewId).not.toBe(parked.pendingReview!.reviewId);
    expect(again.pendingReview).toMatchObject({ checkpoint: 'response_review', output: ['Here is ', 'my answer to: ', 'name a red fruit'] });
    const executions = await api.system.store.ledger.listForRun(id);
    expect(executions).toHaveLength(2);
    expect(replicate.created().filter((p) => JSON.stringify(p.input).includes('name a red fruit'))).toHaveLength(1);
  });
});
