/**
 * A local server that speaks OpenAI's `POST /v1/chat/completions` (and, for the `openai` provider, the image,
 * speech and transcription routes of openai-media.ts), for tests, benchmarks and `vetted demo --sim`. Every
 * route honours `Idempotency-Key` (idempotency.ts). It honours `response_format: {type: "json_schema"}` by answering an object that fits
 * the schema (openai-fill.ts), records every request body, and can misbehave on purpose, for the whole
 * server (`behavior`) or for one request (a marker anywhere in its messages):
 *
 *   slow          sim:slow       answers after `slowMs` (the client's timeout fires first)
 *   rate_limited  sim:429        429 with `retry-after-ms`, every time
 *   server_error  sim:500        500, every time
 *   refuse        sim:refuse     `message.refusal` set, no content
 *   bad_json      sim:bad-json   content that is not JSON
 *   violate       sim:violate    JSON that does not fit the schema
 *   cut_off       sim:cut-off    finish_reason "length" with half an answer
 *   loosen        sim:loosen     a fitting answer that also switches every safety/NSFW boolean on by itself
 *
 * The model routes (not chat) take server-wide faults for the next few calls from hooks: `failNextCalls` (an
 * error, nothing ran), `loseNextAnswers` (it ran, the answer is lost) and `holdNextCalls` (it ran, the answer
 * comes late), so a fault run can kill the caller around a call and count what ran (`executions`).
 *
 * The chat-reply interpreter's requests (json_schema `vetted_reply_interpretation`) are answered by the scripted
 * rules in openai-reply.ts instead of a filled-in schema.
 */
import type { FastifyInstance } from 'fastify';
import { REPLY_SCHEMA_NAME } from '../adapters/openai/reply-interpreter.ts';
import { fillObject, readUserMessage, type JsonObject } from './openai-fill.ts';
import { replyAnswer } from './openai-reply.ts';
import { bearerToken, createSimApp, delay, listen, type SimListenOptions } from './http.ts';
import { createIdempotencyStore, type IdempotencyStore, type SimAnswer } from './idempotency.ts';
import { noMediaFaults, registerMediaRoutes } from './openai-media.ts';

export type OpenAiSimBehavior = 'answer' | 'slow' | 'rate_limited' | 'server_error' | 'refuse' | 'bad_json' | 'violate' | 'cut_off' | 'loosen';

/** Per-request markers and the behaviour each one forces. */
export const OPENAI_SIM_MARKERS: Readonly<Record<string, OpenAiSimBehavior>> = {
  'sim:slow': 'slow',
  'sim:429': 'rate_limited',
  'sim:500': 'server_error',
  'sim:refuse': 'refuse',
  'sim:bad-json': 'bad_json',
  'sim:violate': 'violate',
  'sim:cut-off': 'cut_off',
  'sim:loosen': 'loosen',
};

export interface OpenAiSimOptions extends SimListenOptions {
  /** What every request gets unless it carries a marker (default `answer`). */
  behavior?: OpenAiSimBehavior;
  /** How long `slow` waits (default 2000 ms). */
  slowMs?: number;
}

export interface RecordedChatRequest {
  body: JsonObject;
  /** The bearer token the client sent (tests prove which key the SDK used). */
  apiKey: string | null;
  behavior: OpenAiSimBehavior;
}

export interface OpenAiSim {
  /** The SDK's `baseURL`, ending in `/v1`. */
  readonly baseUrl: string;
  /** The server's origin: files it serves are under `<origin>/files/`. */
  readonly origin: string;
  /** Every chat completion request received, in order. */
  readonly requests: RecordedChatRequest[];
  /** What really ran, on every route, in order (a replayed Idempotency-Key is not here). */
  readonly executions: IdempotencyStore['executions'];
  /** Requests answered from the Idempotency-Key store. */
  readonly replays: IdempotencyStore['replays'];
  setBehavior(behavior: OpenAiSimBehavior): void;
  /** The next `count` calls to the model routes (images, speech, transcriptions) answer `status` and run nothing. */
  failNextCalls(count: number, status: number): void;
  /** The next `count` model-route calls run and are stored under their key, but their first answer is lost (502). */
  loseNextAnswers(count: number): void;
  /** The next `count` model-route calls run, then answer only after `ms`. */
  holdNextCalls(count: number, ms: number): void;
  /** Model-route calls done and held back now (holdNextCalls). */
  readonly callsHeld: number;
  close(): Promise<void>;
}

export async function startOpenAiSim(options: OpenAiSimOptions = {}): Promise<OpenAiSim> {
  const state = { behavior: options.behavior ?? 'answer', slowMs: options.slowMs ?? 2000, served: 0 };
  const requests: RecordedChatRequest[] = [];
  const app = createSimApp();
  const store = createIdempotencyStore();
  let origin = '';
  registerRoutes(app, state, requests, store);
  const faults = noMediaFaults();
  registerMediaRoutes(app, store, () => origin, faults);
  origin = await listen(app, options);
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    executions: store.executions,
    replays: store.replays,
    setBehavior(behavior) {
      state.behavior = behavior;
    },
    failNextCalls(count, status) {
      faults.fail = { count, status };
    },
    loseNextAnswers(count) {
      faults.lose = count;
    },
    holdNextCalls(count, ms) {
      faults.hold = { count, ms };
    },
    get callsHeld() {
      return faults.held;
    },
    close: () => app.close(),
  };
}

interface SimState {
  behavior: OpenAiSimBehavior;
  slowMs: number;
  served: number;
}

function registerRoutes(app: FastifyInstance, state: SimState, requests: RecordedChatRequest[], store: IdempotencyStore): void {
  app.post('/v1/chat/completions', async (request, reply) => {
    const body = (request.body ?? {}) as JsonObject;
    if (typeof body.model !== 'string' || !Array.isArray(body.messages)) {
      return reply.code(400).send(apiError('model and messages are required', 'invalid_request_error'));
    }
    const behavior = markerIn(body.messages) ?? state.behavior;
    requests.push({ body, apiKey: bearerToken(request), behavior });
    const answer = await store.answer(request, reply, 'chat.completions', body, async () => {
      state.served += 1;
      return chatAnswer(body, behavior, state);
    });
    return answer;
  });
}

async function chatAnswer(body: JsonObject, behavior: OpenAiSimBehavior, state: SimState): Promise<SimAnswer> {
  const retryFast = { 'retry-after-ms': '5' };
  const ok = (completed: JsonObject): SimAnswer => ({ status: 200, body: completed });
  switch (behavior) {
    case 'rate_limited':
      return { status: 429, headers: retryFast, body: apiError('Rate limit reached (simulated)', 'requests', 'rate_limit_exceeded') };
    case 'server_error':
      return { status: 500, headers: retryFast, body: apiError('The server had an error (simulated)', 'server_error') };
    case 'slow':
      await delay(state.slowMs);
      return ok(completion(body, answerFor(body), state.served));
    case 'refuse':
      return ok(completion(body, { content: null, refusal: "I'm sorry, I can't help with that request." }, state.served));
    case 'bad_json':
      return ok(completion(body, { content: '{"prompt": "this answer never closes' }, state.served));
    case 'violate':
      return ok(completion(body, { content: JSON.stringify({ not_in_the_schema: 'sim' }) }, state.served));
    case 'cut_off':
      return ok(completion(body, { content: answerFor(body).content?.slice(0, 10) ?? '' }, state.served, 'length'));
    case 'loosen':
      return ok(completion(body, loosened(answerFor(body)), state.served));
    case 'answer':
      return ok(completion(body, answerFor(body), state.served));
  }
}

interface AnswerMessage {
  content: string | null;
  refusal?: string;
}

/** The schema-fitting answer for a request (or the user's text echoed, without a json_schema). */
function answerFor(body: JsonObject): AnswerMessage {
  const userText = lastUserText(body.messages);
  const format = body.response_format as { type?: string; json_schema?: { name?: string; schema?: JsonObject } } | undefined;
  const schema = format?.type === 'json_schema' ? format.json_schema?.schema : undefined;
  if (!schema) return { content: userText };
  // The chat-reply interpreter: scripted decisions (openai-reply.ts), not a filled-in schema.
  if (format?.json_schema?.name === REPLY_SCHEMA_NAME) return { content: JSON.stringify(replyAnswer(userText)) };
  return { content: JSON.stringify(fillObject(schema, readUserMessage(userText))) };
}

/** An LLM overstepping: `disable_safety_checker: true` and the like, which nobody asked for. */
function loosened(answer: AnswerMessage): AnswerMessage {
  if (answer.content === null) return answer;
  const object = JSON.parse(answer.content) as JsonObject;
  for (const [name, value] of Object.entries(object)) {
    if (/safety|nsfw/i.test(name) && (typeof value === 'boolean' || value === null)) object[name] = true;
  }
  return { content: JSON.stringify(object) };
}

function completion(body: JsonObject, message: AnswerMessage, serial: number, finish: 'stop' | 'length' = 'stop'): JsonObject {
  // Roughly four characters a token, like the real tokenizers on English text.
  const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completionTokens = Math.ceil((message.content ?? message.refusal ?? '').length / 4);
  return {
    id: `chatcmpl-sim-${serial}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: message.content, refusal: message.refusal ?? null }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

function lastUserText(messages: unknown): string {
  const list = Array.isArray(messages) ? (messages as JsonObject[]) : [];
  const user = [...list].reverse().find((m) => m && m.role === 'user');
  const content = user?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part && typeof part === 'object' ? String((part as JsonObject).text ?? '') : '')).join('\n');
  return '';
}

function markerIn(messages: unknown): OpenAiSimBehavior | undefined {
  const text = JSON.stringify(messages);
  const marker = Object.keys(OPENAI_SIM_MARKERS).find((m) => text.includes(m));
  return marker === undefined ? undefined : OPENAI_SIM_MARKERS[marker];
}

function apiError(message: string, type: string, code: string | null = null): JsonObject {
  return { error: { message, type, param: null, code } };
}
