/**
 * Layer 2's LLM (src/review/reply/interpret.ts): one chat completion that classifies a reply the fast path could
 * not, through the official `openai` SDK against any OpenAI-compatible server (the builder's base URL and key).
 * Structured Outputs, strict: `{decision, parsed: {approved, answer, modifications}}`, where modifications are a
 * list of `{field, value}` pairs whose field is an enum of the question's editable fields, so the model cannot
 * name anything else; values come back as text and are read by the field's type here. Temperature 0.1, at most
 * 200 tokens, its own short timeout. Any failure is an answer with a reason, never an exception.
 */
import { OpenAI } from 'openai';
import type { Config } from '../../config.ts';
import type { EditableField, InterpreterAnswer, InterpreterInput, ReplyInterpreter } from '../../review/reply/types.ts';
import { LOCAL_SERVER_API_KEY, OPENAI_DEFAULT_BASE_URL } from './openai-builder.ts';

/** The json_schema name the interpreter's requests carry (the OpenAI sim answers it with its reply rules). */
export const REPLY_SCHEMA_NAME = 'vetted_reply_interpretation';

const DECISIONS = ['continue', 'continue_with_modifications', 'switch_intent', 'cancel', 're_ask'] as const;

export interface ReplyInterpreterConfig {
  openai: Config['openai'];
  timeoutMs: number;
}

export function createReplyInterpreter(config: ReplyInterpreterConfig): ReplyInterpreter {
  const client = new OpenAI({
    apiKey: config.openai.apiKey ?? LOCAL_SERVER_API_KEY,
    baseURL: config.openai.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
    timeout: config.timeoutMs,
    // One retry: a person is waiting for an answer, and a re_ask is a fine outcome.
    maxRetries: 1,
    logLevel: 'off',
  });
  return {
    async interpret(input, options) {
      try {
        const completion = await client.chat.completions.create(
          {
            model: config.openai.model,
            temperature: 0.1,
            max_tokens: 200,
            messages: [{ role: 'system', content: systemPrompt(input) }, { role: 'user', content: `Reply: ${input.text}` }],
            response_format: { type: 'json_schema', json_schema: { name: REPLY_SCHEMA_NAME, strict: true, schema: answerSchema(input.question.editableFields) } },
          },
          { signal: options?.signal },
        );
        return readAnswer(completion.choices[0]?.message, input.question.editableFields);
      } catch (error) {
        return { ok: false, reason: failureReason(error) };
      }
    },
  };
}

function systemPrompt(input: InterpreterInput): string {
  const { question } = input;
  const fields = question.editableFields.map((field) => `- ${field.name}: ${JSON.stringify(field.schema)}${field.description ? ` (${field.description})` : ''}`).join('\n');
  return [
    'You read one reply a person wrote to a question, in any language, and classify it. Answer with JSON only.',
    'decision is one of:',
    '- continue: the reply answers the question (for a yes/no question, set parsed.approved; otherwise parsed.answer to the answer as written).',
    '- continue_with_modifications: the reply approves AND asks for changes to the same request (e.g. "yes, but make it 16:9"); list each change in parsed.modifications as {field, value}, using only the fields below; set parsed.approved true.',
    '- switch_intent: the reply is about something else entirely (a new request or an unrelated question).',
    '- cancel: the person calls the request off ("never mind", "forget it").',
    '- re_ask: the reply tries to answer but is unclear ("hmm", "maybe", "what?").',
    'Never invent values the reply does not state. Leave a parsed key null when it does not apply.',
    `The question (${question.expectedInput}): ${question.question}`,
    question.options.length > 0 ? `Options: ${question.options.map((o, i) => `${i + 1}. ${o.label}`).join('; ')}` : '',
    fields ? `Fields a reply may change:\n${fields}` : 'No field may be changed.',
    input.locale ? `The person's language: ${input.locale}.` : '',
  ].filter(Boolean).join('\n');
}

function answerSchema(fields: readonly EditableField[]): Record<string, unknown> {
  const modification = fields.length === 0
    ? { type: 'null' }
    : { type: ['array', 'null'], items: { type: 'object', additionalProperties: false, required: ['field', 'value'], properties: { field: { type: 'string', enum: fields.map((f) => f.name) }, value: { type: 'string' } } } };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['decision', 'parsed'],
    properties: {
      decision: { type: 'string', enum: [...DECISIONS] },
      parsed: {
        type: 'object',
        additionalProperties: false,
        required: ['approved', 'answer', 'modifications'],
        properties: { approved: { type: ['boolean', 'null'] }, answer: { type: ['string', 'null'] }, modifications: modification },
      },
    },
  };
}

interface AnswerMessage {
  content?: string | null;
  refusal?: string | null;
}

function readAnswer(message: AnswerMessage | undefined, fields: readonly EditableField[]): InterpreterAnswer {
  if (!message) return { ok: false, reason: 'failed: no choice in the answer' };
  if (message.refusal) return { ok: false, reason: 'refused' };
  let body: unknown;
  try {
    body = JSON.parse(message.content ?? '');
  } catch {
    return { ok: false, reason: 'bad_json' };
  }
  if (typeof body !== 'object' || body === null) return { ok: false, reason: 'bad_json' };
  const { decision, parsed } = body as { decision?: unknown; parsed?: unknown };
  const raw = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { approved?: unknown; answer?: unknown; modifications?: unknown };
  return {
    ok: true,
    decision,
    parsed: {
      ...(raw.approved === null || raw.approved === undefined ? {} : { approved: raw.approved }),
      ...(raw.answer === null || raw.answer === undefined ? {} : { answer: raw.answer }),
      ...(Array.isArray(raw.modifications) ? { modifications: modificationsOf(raw.modifications, fields) } : {}),
    },
  };
}

/** `[{field, value}]` as `{field: value}`, each value read by its field's type (a number for a number field). */
function modificationsOf(pairs: unknown[], fields: readonly EditableField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    if (typeof pair !== 'object' || pair === null) continue;
    const { field, value } = pair as { field?: unknown; value?: unknown };
    if (typeof field !== 'string' || typeof value !== 'string') continue;
    const spec = fields.find((f) => f.name === field);
    out[field] = spec ? typed(value, spec.schema) : value;
  }
  return out;
}

function typed(value: string, schema: Record<string, unknown>): unknown {
  const type = schema.type;
  const textual = type === 'string' || (Array.isArray(type) && type.includes('string')) || Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string');
  if (textual) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function failureReason(error: unknown): string {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  if (/timeout/i.test(name) || /timed? ?out/i.test(String((error as Error | undefined)?.message))) return 'timeout';
  if (name === 'AbortError' || name === 'APIUserAbortError') return 'aborted';
  const status = (error as { status?: number } | undefined)?.status;
  return `failed: ${status ? `HTTP ${status}` : error instanceof Error ? error.message : String(error)}`;
}
