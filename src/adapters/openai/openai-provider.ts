/**
 * The `openai` ModelProvider, on the official `openai` SDK: runs the catalog's OpenAI operations
 * (`openai/createImage` and the others below) with the vetted payload as the request body. Every call carries
 * an `Idempotency-Key` derived from the run and its ledger step, recorded in the ledger before the call
 * (keyed-call.ts), so neither a crash nor a retry runs the model twice.
 *
 * Files (an image edit's `image` and `mask`, a transcription's `file`) are URLs in the payload; they are
 * downloaded (upload-files.ts) and sent as multipart parts, as the API expects.
 */
import OpenAI, { toFile } from 'openai';
import type { ExecutionRequest, ModelProvider } from '../../ports.ts';
import { ProviderNotStartedError } from '../../stages/executor.ts';
import { createKeyedProvider } from '../keyed-call.ts';
import { downloadUpload, type UploadPolicy } from '../upload-files.ts';
import type { OpenAiRunnable } from '../../catalog/provider-operations.ts';

export const OPENAI_PROVIDER_NAME = 'openai';
const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiProviderConfig {
  apiKey: string;
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
  uploads: UploadPolicy;
}

type Body = Record<string, unknown>;
type Options = { headers: Record<string, string>; signal?: AbortSignal };
type Called = { output: unknown; metrics?: Record<string, unknown> };

interface Operation {
  /** Payload fields that are files: URLs in the payload, multipart parts on the wire. */
  uploads: readonly string[];
  call(client: OpenAI, body: Body, options: Options): Promise<Called>;
}

/** The operations this provider runs, by the operationId in OpenAI's published document. */
export const OPENAI_OPERATIONS: Readonly<Record<OpenAiRunnable, Operation>> = {
  createImage: {
    uploads: [],
    call: async (client, body, options) => usage(await client.images.generate({ ...body, stream: false } as unknown as OpenAI.ImageGenerateParamsNonStreaming, options)),
  },
  createImageEdit: {
    uploads: ['image', 'mask'],
    call: async (client, body, options) => usage(await client.images.edit({ ...body, stream: false } as unknown as OpenAI.ImageEditParamsNonStreaming, options)),
  },
  createSpeech: {
    uploads: [],
    async call(client, body, options) {
      const response = await client.audio.speech.create({ ...body, stream_format: 'audio' } as unknown as OpenAI.Audio.SpeechCreateParams, options);
      const bytes = Buffer.from(await response.arrayBuffer());
      const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
      return { output: { audio: `data:${contentType};base64,${bytes.toString('base64')}`, contentType, bytes: bytes.length } };
    },
  },
  createTranscription: {
    uploads: ['file'],
    async call(client, body, options) {
      const answer: unknown = await client.audio.transcriptions.create({ ...body, stream: false } as unknown as OpenAI.Audio.TranscriptionCreateParamsNonStreaming, options);
      return { output: typeof answer === 'string' ? { text: answer } : answer };
    },
  },
  createChatCompletion: {
    uploads: [],
    call: async (client, body, options) => usage(await client.chat.completions.create({ ...body, stream: false } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, options)),
  },
};

export function createOpenAiProvider(config: OpenAiProviderConfig, client = openAiClient(config)): ModelProvider {
  return createKeyedProvider({
    name: OPENAI_PROVIDER_NAME,
    errors: { APIError: OpenAI.APIError, APIUserAbortError: OpenAI.APIUserAbortError },
    async prepare(request) {
      const operation = operationOf(request);
      return { operation, body: await withFiles(operation, request, config.uploads) };
    },
    call: ({ operation, body }, idempotencyKey, signal) => operation.call(client, body, { headers: { 'Idempotency-Key': idempotencyKey }, ...(signal ? { signal } : {}) }),
  });
}

function openAiClient(config: OpenAiProviderConfig): OpenAI {
  // The SDK logs to the console, past Vetted's redacting logger; every failure reaches us as an error.
  return new OpenAI({ apiKey: config.apiKey, baseURL: config.baseUrl ?? OPENAI_DEFAULT_BASE_URL, timeout: config.timeoutMs, maxRetries: config.maxRetries, logLevel: 'off' });
}

/** `openai/createImage` → the createImage operation. */
function operationOf(request: ExecutionRequest): Operation {
  const id = request.model?.startsWith(`${OPENAI_PROVIDER_NAME}/`) ? request.model.slice(OPENAI_PROVIDER_NAME.length + 1) : undefined;
  const operation = id !== undefined && Object.hasOwn(OPENAI_OPERATIONS, id) ? OPENAI_OPERATIONS[id as OpenAiRunnable] : undefined;
  if (!operation) {
    throw new ProviderNotStartedError('PROVIDER_FAILED', `model "${request.model ?? ''}" is no OpenAI operation this provider runs; it runs ${Object.keys(OPENAI_OPERATIONS).map((op) => `openai/${op}`).join(', ')}`, { field: 'model' });
  }
  return operation;
}

async function withFiles(operation: Operation, request: ExecutionRequest, policy: UploadPolicy): Promise<Body> {
  const body: Body = { ...request.payload };
  for (const field of operation.uploads) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    body[field] = Array.isArray(value)
      ? await Promise.all(value.map(async (url, i) => toFile(await downloadUpload(`${field}[${i}]`, url, policy, request.signal))))
      : await toFile(await downloadUpload(field, value, policy, request.signal));
  }
  return body;
}

/** The whole answer is the output; its token usage, when it has one, is also kept as metrics. */
function usage(answer: object): Called {
  const used = (answer as { usage?: unknown }).usage;
  return { output: answer, ...(used && typeof used === 'object' ? { metrics: { usage: used } } : {}) };
}
