/**
 * A local server that speaks Anthropic's Messages API (`POST /v1/messages`), for tests and the demo, driven
 * through the real `@anthropic-ai/sdk` with its baseURL pointed here. It checks what the real API checks first
 * (the key when one is set, as `x-api-key` or the bearer token this SDK sends, the `anthropic-version` header, `model`, `max_tokens` and `messages`),
 * answers a message that echoes the last user text, honours `Idempotency-Key` (idempotency.ts) and answers
 * errors in Anthropic's shape. Markers in the user text misbehave on purpose: `sim:429` (rate limited),
 * `sim:529` (overloaded), `sim:refuse` (400), `sim:lost-once` (the work is done and stored under the key, but
 * the first answer is a 502, as when a response is lost on the way back).
 */
import { bearerToken, createSimApp, listen, type SimListenOptions } from './http.ts';
import { createIdempotencyStore, type IdempotencyStore, type SimAnswer } from './idempotency.ts';

export interface AnthropicSimOptions extends SimListenOptions {
  /** When set, any other `x-api-key` gets 401. */
  apiKey?: string;
}

export interface AnthropicSim {
  /** The SDK's `baseURL` (the origin; the SDK adds `/v1/messages`). */
  readonly baseUrl: string;
  /** What really ran (a replayed Idempotency-Key is not here). */
  readonly executions: IdempotencyStore['executions'];
  readonly replays: IdempotencyStore['replays'];
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

export async function startAnthropicSim(options: AnthropicSimOptions = {}): Promise<AnthropicSim> {
  const app = createSimApp();
  const store = createIdempotencyStore();
  let serial = 0;
  app.post('/v1/messages', async (request, reply) => {
    const key = request.headers['x-api-key'] ?? bearerToken(request);
    if (options.apiKey !== undefined && key !== options.apiKey) return reply.code(401).send(error('authentication_error', 'invalid x-api-key'));
    if (typeof request.headers['anthropic-version'] !== 'string') return reply.code(400).send(error('invalid_request_error', 'anthropic-version: header is required'));
    const body = (request.body ?? {}) as Body;
    return store.answer(request, reply, 'messages', body, async () => {
      const missing = ['model', 'max_tokens', 'messages'].find((name) => body[name] === undefined);
      if (missing) return { status: 400, body: error('invalid_request_error', `${missing}: Field required`) };
      if (!Array.isArray(body.messages) || body.messages.length === 0) return { status: 400, body: error('invalid_request_error', 'messages: at least one message is required') };
      const text = lastUserText(body.messages);
      serial += 1;
      return misbehaviour(text) ?? withLoss(text, { status: 200, body: message(body, text, serial) });
    });
  });
  const origin = await listen(app, options);
  return { baseUrl: origin, executions: store.executions, replays: store.replays, close: () => app.close() };
}

function message(body: Body, text: string, serial: number): Body {
  const input = Math.ceil(JSON.stringify(body.messages).length / 4);
  const output = Math.ceil(text.length / 4);
  return {
    id: `msg_sim_${String(serial).padStart(6, '0')}`, type: 'message', role: 'assistant', model: body.model,
    content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null,
    usage: { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function lastUserText(messages: unknown[]): string {
  const user = [...messages].reverse().find((m): m is Body => typeof m === 'object' && m !== null && (m as Body).role === 'user');
  const content = user?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((block) => (typeof block === 'object' && block !== null ? String((block as Body).text ?? '') : '')).join('\n');
  return '';
}

function error(type: string, message: string): Body {
  return { type: 'error', error: { type, message } };
}

function misbehaviour(text: string): SimAnswer | undefined {
  if (text.includes('sim:429')) return { status: 429, headers: { 'retry-after-ms': '5' }, body: error('rate_limit_error', 'Rate limited (simulated)') };
  if (text.includes('sim:529')) return { status: 529, headers: { 'retry-after-ms': '5' }, body: error('overloaded_error', 'Overloaded (simulated)') };
  if (text.includes('sim:refuse')) return { status: 400, body: error('invalid_request_error', 'The request was refused (simulated)') };
  return undefined;
}

function withLoss(text: string, answer: SimAnswer): SimAnswer {
  return text.includes('sim:lost-once') ? { ...answer, lose: { status: 502, body: error('api_error', 'Bad gateway (simulated: the work was done)') } } : answer;
}
