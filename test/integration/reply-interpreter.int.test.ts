/**
 * Layer 2 through the real `openai` SDK against the local OpenAI-compatible sim: scripted decisions come back
 * checked (modifications allowlisted), and every way the LLM can fail (bad JSON, a refusal, a 500, an answer
 * outside the schema, a timeout) is a re_ask that says why, never an exception and never a decision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplyInterpreter } from '../../src/adapters/openai/reply-interpreter.ts';
import { interpretReply } from '../../src/review/reply/interpret.ts';
import type { ReplyInterpreter, ReplyQuestion } from '../../src/review/reply/types.ts';
import { startOpenAiSim, type OpenAiSim } from '../../src/sim/index.ts';

let sim: OpenAiSim;
let interpreter: ReplyInterpreter;

beforeAll(async () => {
  sim = await startOpenAiSim({ slowMs: 2000 });
  interpreter = createReplyInterpreter({ openai: { baseUrl: sim.baseUrl, model: 'gpt-4o-mini', timeoutMs: 30_000, maxRetries: 0 }, timeoutMs: 500 });
});
afterAll(async () => sim?.close());

const approval: ReplyQuestion = {
  expectedInput: 'yes_no',
  source: 'planner',
  question: 'Your request is ready. Shall I run it as it is?',
  options: [{ id: 'yes', label: 'Yes' }, { id: 'no', label: 'No' }],
  editableFields: [
    { name: 'aspect_ratio', schema: { type: 'string', enum: ['1:1', '16:9', '9:16'] } },
    { name: 'num_outputs', schema: { type: 'integer', minimum: 1, maximum: 4 } },
  ],
};
const read = (text: string, question = approval) => interpretReply(text, question, { interpreter });

describe('the interpreter, scripted', () => {
  it('reads an approval with a change, and sends what the seed asks (temperature 0.1, 200 tokens, the strict schema)', async () => {
    const before = sim.requests.length;
    expect(await read('yes, but 16:9')).toMatchObject({ layer: 'interpreter', decision: 'continue_with_modifications', parsed: { approved: true, modifications: { aspect_ratio: '16:9' } } });
    const request = sim.requests.at(-1)?.body as { temperature: number; max_tokens: number; response_format: { json_schema: { name: string; strict: boolean } } };
    expect(sim.requests.length).toBe(before + 1);
    expect(request).toMatchObject({ temperature: 0.1, max_tokens: 200, response_format: { json_schema: { name: 'vetted_reply_interpretation', strict: true } } });
  });

  it('cancel, switch_intent and re_ask, in more than one language', async () => {
    expect(await read('never mind')).toMatchObject({ layer: 'interpreter', decision: 'cancel' });
    expect(await read('לא משנה, עזוב')).toMatchObject({ decision: 'cancel' });
    expect(await read("what's the weather tomorrow")).toMatchObject({ layer: 'interpreter', decision: 'switch_intent' });
    expect(await read('hmm, let me think')).toMatchObject({ layer: 'interpreter', decision: 're_ask' });
  });

  it('types a number field, and strips any field outside the allowlist (ids, secrets), saying so', async () => {
    const outcome = await read('sure sim:decide=continue_with_modifications sim:mods={"num_outputs":3,"reviewId":"x","api_token":"t"}');
    expect(outcome).toMatchObject({ decision: 'continue_with_modifications', parsed: { modifications: { num_outputs: 3 } }, interpreter: { fallback: 'stripped: reviewId, api_token' } });
    expect(outcome.parsed?.modifications).not.toHaveProperty('reviewId');
  });

  it('a continue must carry what the question asks: a boolean for yes/no; an offered option for a choice', async () => {
    expect(await read('fine I suppose sim:decide=continue sim:approved=true')).toMatchObject({ decision: 'continue', parsed: { approved: true } });
    expect(await read('fine I suppose sim:decide=continue')).toMatchObject({ decision: 're_ask', interpreter: { fallback: 'continue without an answer the question can take' } });
    const choice: ReplyQuestion = { ...approval, expectedInput: 'single_choice', options: [{ id: '16:9', label: 'wide' }, { id: '1:1', label: 'square' }] };
    expect(await read('the square one please sim:decide=continue sim:answer=square', choice)).toMatchObject({ decision: 'continue', parsed: { selected: ['1:1'] } });
    expect(await read('the round one sim:decide=continue sim:answer=round', choice)).toMatchObject({ decision: 're_ask' });
  });
});

describe('the interpreter, failing', () => {
  it.each([
    ['sim:bad-json', 'bad_json'],
    ['sim:refuse', 'refused'],
    ['sim:500', 'failed: HTTP 500'],
    ['sim:violate', 'unknown_decision'],
    ['sim:slow', 'timeout'],
  ])('%s is a re_ask because of %s', async (marker, fallback) => {
    expect(await read(`not sure ${marker}`)).toMatchObject({ layer: 'interpreter', decision: 're_ask', interpreter: { fallback } });
  });
});
