/**
 * The chaos run's "executed twice" check counts what ran at the fal and OpenAI sims, not only at Replicate's:
 * fed a run executed twice at a sim, it fails naming the sim; a replay of a stored Idempotency-Key, an answer
 * lost after the work was done, or a refused call is not a second execution. The sims' fault hooks the chaos run
 * uses (held, lost and refused calls) are exercised on the way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simExecutions } from '../../chaos/sim-executions.ts';
import { judgeDoubles, type LedgerStep } from '../../chaos/verify.ts';
import { startFalSim, type FalSim } from '../../src/sim/fal-sim.ts';
import { startOpenAiSim, type OpenAiSim } from '../../src/sim/index.ts';

let fal: FalSim;
let openai: OpenAiSim;

beforeAll(async () => {
  fal = await startFalSim();
  openai = await startOpenAiSim();
});

afterAll(async () => {
  await fal?.close();
  await openai?.close();
});

const noReplicate = { created: () => [] };
const executions = () => simExecutions({ replicate: noReplicate, fal, openai });
/** The executed-twice verdict for one run whose requestKey is `tag`, with these ledger steps. */
const judge = (tag: string, steps: string[]) => {
  const ledger: LedgerStep[] = steps.map((id, i) => ({ run_id: `run-${tag}`, step: `execute:${i + 1}`, prediction_id: id }));
  return judgeDoubles({ ledger, deliberate: new Map(), executions: executions(), byKey: new Map([[tag, `run-${tag}`]]) }).doubled;
};

const submitToFal = async (prompt: string) => {
  const response = await fetch(`${fal.baseUrl}/fal-ai/flux/dev`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
  return { status: response.status, body: (await response.json()) as { request_id?: string } };
};
const falHandle = (requestId: string | undefined) => `fal-ai/flux/dev/requests/${requestId}`;

const generate = async (prompt: string, key: string) => {
  const response = await fetch(`${openai.baseUrl}/images/generations`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ prompt }),
  });
  return response.status;
};

describe('executions at the fal sim', () => {
  it('one submission for one ledger step passes; a second submission of the same run is caught, naming fal', async () => {
    const first = await submitToFal('a kite [ref cxfa0001]');
    expect(judge('cxfa0001', [falHandle(first.body.request_id)])).toEqual([]);
    await submitToFal('a kite [ref cxfa0001]');
    expect(judge('cxfa0001', [falHandle(first.body.request_id)])).toEqual([
      { runId: 'run-cxfa0001', why: '2 executions at fal for 1 ledger step(s)' },
    ]);
  });

  it('a refused submission queued nothing; a held one is queued before it is answered', async () => {
    fal.failNextSubmits(1, 502);
    expect((await submitToFal('a heron [ref cxfa0002]')).status).toBe(502);
    expect(executions().filter((e) => JSON.stringify(e.input).includes('cxfa0002'))).toEqual([]);
    fal.holdNextSubmits(1, 300);
    const answered = submitToFal('a heron [ref cxfa0002]');
    await expect.poll(() => fal.submitsHeld).toBe(1);
    expect(executions().filter((e) => JSON.stringify(e.input).includes('cxfa0002'))).toHaveLength(1);
    const { body } = await answered;
    expect(fal.submitsHeld).toBe(0);
    expect(judge('cxfa0002', [falHandle(body.request_id)])).toEqual([]);
  });
});

describe('executions at the OpenAI sim', () => {
  it('a retry with the same Idempotency-Key is a replay, not an execution; another key for the same run is caught', async () => {
    expect(await generate('a lark [ref cxoa0001]', 'vetted-run-cxoa0001-execute:1')).toBe(200);
    expect(await generate('a lark [ref cxoa0001]', 'vetted-run-cxoa0001-execute:1')).toBe(200);
    expect(judge('cxoa0001', ['openai:vetted-run-cxoa0001-execute:1'])).toEqual([]);
    expect(await generate('a lark [ref cxoa0001]', 'vetted-run-cxoa0001-other')).toBe(200);
    expect(judge('cxoa0001', ['openai:vetted-run-cxoa0001-execute:1'])).toEqual([
      { runId: 'run-cxoa0001', why: '2 executions at openai for 1 ledger step(s)' },
    ]);
  });

  it('a lost answer ran once and replays; a refused call ran nothing', async () => {
    openai.loseNextAnswers(1);
    expect(await generate('a wren [ref cxoa0002]', 'k-cxoa0002')).toBe(502);
    expect(await generate('a wren [ref cxoa0002]', 'k-cxoa0002')).toBe(200);
    openai.failNextCalls(1, 500);
    expect(await generate('a finch [ref cxoa0003]', 'k-cxoa0003')).toBe(500);
    expect(await generate('a finch [ref cxoa0003]', 'k-cxoa0003')).toBe(200);
    expect(judge('cxoa0002', ['openai:k-cxoa0002'])).toEqual([]);
    expect(judge('cxoa0003', ['openai:k-cxoa0003'])).toEqual([]);
    expect(openai.replays.filter((r) => r.key === 'k-cxoa0002')).toHaveLength(1);
  });

  it('a held call has run: the same key meanwhile is told it is in progress, and then replayed', async () => {
    openai.holdNextCalls(1, 300);
    const first = generate('a swift [ref cxoa0004]', 'k-cxoa0004');
    await expect.poll(() => openai.callsHeld).toBe(1);
    expect(await generate('a swift [ref cxoa0004]', 'k-cxoa0004')).toBe(409);
    expect(await first).toBe(200);
    expect(await generate('a swift [ref cxoa0004]', 'k-cxoa0004')).toBe(200);
    expect(judge('cxoa0004', ['openai:k-cxoa0004'])).toEqual([]);
  });

  it('leaves the builder\'s unkeyed chat completions out', async () => {
    const response = await fetch(`${openai.baseUrl}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi [ref cxoa0005]' }] }),
    });
    expect(response.status).toBe(200);
    expect(executions().filter((e) => JSON.stringify(e.input).includes('cxoa0005'))).toEqual([]);
  });
});
