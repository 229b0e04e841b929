/**
 * The `openai` PayloadBuilder: the official SDK, Chat Completions with Structured Outputs (`strict: true`).
 * Any OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp): only the base URL changes.
 *
 * One build: ModelSchema → strict schema (strict-schema.ts) → one chat completion → the answer parsed and
 * checked against the strict schema (strict-answer.ts) → edits, traced values and defaults
 * (candidate.ts) → a CandidatePayload the Validator treats like any other. The LLM never sees an example
 * value: the builder is never handed the quarantine, and the ModelSchema holds none.
 *
 * Failures (timeout, 429 and 5xx after the SDK's retries, a refusal, a cut-off or unparsable answer, an
 * answer outside the schema) are BUILDER_FAILED with the reason; the stage processor parks the run.
 */
import { OpenAI } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Config } from '../../config.ts';
import { VettedError } from '../../errors.ts';
import type { CandidatePayload } from '../../generated/contracts.ts';
import type { BuilderInput, PayloadBuilder } from '../../ports.ts';
import { builderFailure, type CallFacts } from './builder-errors.ts';
import { assembleCandidate } from './candidate.ts';
import { OPENAI_BUILDER_NAME } from './names.ts';
import { buildMessages } from './prompt.ts';
import { decodeAnswer } from './strict-answer.ts';
import { responseFormat, toStrictSchema } from './strict-schema.ts';

export { OPENAI_BUILDER_NAME } from './names.ts';

/** OpenAI's own API, when no base URL is configured. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/**
 * Local servers (Ollama, llama.cpp, vLLM) ignore the key, but the SDK refuses to start without one; this
 * placeholder is what llama.cpp's own docs use. It is not a secret.
 */
export const LOCAL_SERVER_API_KEY = 'sk-no-key-required';

export type OpenAiBuilderConfig = Config['openai'];

/** The builder the registry hands to the build stage when an OpenAI key or base URL is configured. */
export function createOpenAiBuilder(config: OpenAiBuilderConfig): PayloadBuilder {
  const client = new OpenAI({
    apiKey: config.apiKey ?? LOCAL_SERVER_API_KEY,
    baseURL: config.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    // The SDK logs to the console, past Vetted's redacting logger; every failure reaches us as an error.
    logLevel: 'off',
  });
  const facts: CallFacts = { model: config.model, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries };
  return {
    name: OPENAI_BUILDER_NAME,
    build: (input, options) => buildWithLlm(client, facts, input, options?.signal),
  };
}

async function buildWithLlm(client: OpenAI, facts: CallFacts, input: BuilderInput, signal?: AbortSignal): Promise<CandidatePayload> {
  const strict = toStrictSchema(input.schema);
  const startedAt = performance.now();
  let completion: ChatCompletion;
  try {
    completion = await client.chat.completions.create(
      {
        model: facts.model,
        messages: buildMessages(input.bundle, strict),
        response_format: responseFormat(strict),
        // A translator, not a writer: the same request should map the same way.
        temperature: 0,
      },
      { signal },
    );
  } catch (error) {
    throw builderFailure(error, facts);
  }
  const latencyMs = Math.round(performance.now() - startedAt);
  const answer = decodeAnswer(answerContent(completion), strict, input.schema);
  const usage = {
    model: completion.model || facts.model,
    ...(completion.usage ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens } : {}),
    latencyMs,
  };
  return assembleCandidate({ answer, bundle: input.bundle, schema: input.schema, usage });
}

/** The answer's text, or BUILDER_FAILED saying why there is none to use. */
function answerContent(completion: ChatCompletion): string {
  const choice = completion.choices[0];
  if (!choice) throw failed('The LLM returned no answer (no choices)');
  const { message, finish_reason: finish } = choice;
  if (message.refusal) throw failed(`The LLM refused to map the request: ${message.refusal}`);
  if (finish === 'length') throw failed('The LLM answer was cut off at the token limit (finish_reason "length")');
  if (finish === 'content_filter') throw failed('The LLM answer was withheld by a content filter (finish_reason "content_filter")');
  if (!message.content) throw failed('The LLM returned an empty answer');
  return message.content;
}

function failed(message: string): VettedError {
  return new VettedError('BUILDER_FAILED', message, { details: { builder: OPENAI_BUILDER_NAME } });
}
