/**
 * The OpenAI sim's model routes beyond chat, the ones the `openai` provider calls:
 *
 *   POST /v1/images/generations     JSON                    { created, data: [{ url | b64_json }], usage }
 *   POST /v1/images/edits           multipart (image, mask) the same, naming the files it was sent
 *   POST /v1/audio/speech           JSON                    audio/mpeg bytes
 *   POST /v1/audio/transcriptions   multipart (file)        { text } (or plain text for response_format text)
 *   GET  /files/:name                                       a small file, so payloads can point at this server
 *
 * Every route honours `Idempotency-Key` (idempotency.ts). Markers in the prompt or input text misbehave on
 * purpose: `sim:429` (rate limited), `sim:500` (server error, nothing ran), `sim:refuse` (400, the request
 * was refused by the safety system), `sim:lost-once` (the work is done and stored under the key, but the
 * first answer is a 502, as when a response is lost on the way back). The same misbehaviour comes server-wide,
 * for the next few calls, from the sim's hooks ({@link MediaFaults}): a fault run's provider faults.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { delay } from './http.ts';
import type { IdempotencyStore, SimAnswer } from './idempotency.ts';

type Fields = Record<string, unknown>;
interface SimFile {
  name: string;
  type: string;
  bytes: number;
}

/** Misbehaviour of the next calls to the model routes (chat completions excepted), set by the sim's hooks. */
export interface MediaFaults {
  /** The next `count` calls answer `status` and run nothing. */
  fail: { count: number; status: number };
  /** The next `lose` calls run and are stored under their key, but their first answer is a 502. */
  lose: number;
  /** The next `count` calls run, then answer only after `ms` (a caller killed meanwhile never hears back). */
  hold: { count: number; ms: number };
  /** Calls done and held back now. */
  held: number;
}

export function noMediaFaults(): MediaFaults {
  return { fail: { count: 0, status: 500 }, lose: 0, hold: { count: 0, ms: 0 }, held: 0 };
}

/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

export function registerMediaRoutes(app: FastifyInstance, store: IdempotencyStore, origin: () => string, faults: MediaFaults = noMediaFaults()): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, route: string, body: unknown, work: () => Promise<SimAnswer>) =>
    store.answer(request, reply, route, body, () => underFaults(faults, work));
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  let serial = 0;
  const image = (fields: Fields, extra: Fields = {}): SimAnswer => {
    serial += 1;
    const count = typeof fields.n === 'number' ? fields.n : Number(fields.n ?? 1) || 1;
    const data = Array.from({ length: count }, (_, i) =>
      fields.response_format === 'b64_json' ? { b64_json: PNG.toString('base64') } : { url: `${origin()}/files/img-${serial}-${i}.png`, revised_prompt: fields.prompt });
    return { status: 200, body: { created: Math.floor(Date.now() / 1000), data, ...extra, usage: { input_tokens: String(fields.prompt ?? '').length, output_tokens: 16, total_tokens: String(fields.prompt ?? '').length + 16 } } };
  };

  app.post('/v1/images/generations', (request, reply) => {
    const fields = (request.body ?? {}) as Fields;
    return answer(request, reply, 'images.generations', fields, async () =>
      required(fields, 'prompt') ?? misbehaviour(fields.prompt) ?? withLoss(fields.prompt, image(fields)));
  });

  app.post('/v1/images/edits', async (request, reply) => {
    const { fields, files } = await readMultipart(request);
    return answer(request, reply, 'images.edits', { ...fields, files }, async () =>
      required(fields, 'prompt') ?? (files.image || files['image[]'] ? undefined : invalid('image is required', 'image')) ?? misbehaviour(fields.prompt) ??
      withLoss(fields.prompt, image(fields, { edited: [...(files.image ?? []), ...(files['image[]'] ?? []), ...(files.mask ?? [])] })));
  });

  app.post('/v1/audio/speech', (request, reply) => {
    const fields = (request.body ?? {}) as Fields;
    return answer(request, reply, 'audio.speech', fields, async () =>
      required(fields, 'input') ?? misbehaviour(fields.input) ??
      withLoss(fields.input, { status: 200, contentType: 'audio/mpeg', body: Buffer.concat([Buffer.from('ID3'), Buffer.from(`sim speech: ${String(fields.input)}`)]) }));
  });

  app.post('/v1/audio/transcriptions', async (request, reply) => {
    const { fields, files } = await readMultipart(request);
    return answer(request, reply, 'audio.transcriptions', { ...fields, files }, async () => {
      const file = files.file?.[0];
      if (!file) return invalid('file is required', 'file');
      const text = `sim transcript of ${file.name} (${file.bytes} bytes)`;
      const prompt = fields.prompt;
      return misbehaviour(prompt) ?? withLoss(prompt, fields.response_format === 'text' ? { status: 200, contentType: 'text/plain', body: text } : { status: 200, body: { text } });
    });
  });

  app.get('/files/:name', async (request: FastifyRequest, reply: FastifyReply) => {
    const name = (request.params as { name: string }).name;
    if (name.endsWith('.mp3') || name.endsWith('.wav')) return reply.type('audio/mpeg').send(Buffer.from(`ID3 sim audio ${name}`));
    return reply.type('image/png').send(PNG);
  });
}

/** A call under the hooks' faults: refused before it runs, or run and then held or answered as lost. */
async function underFaults(faults: MediaFaults, work: () => Promise<SimAnswer>): Promise<SimAnswer> {
  if (faults.fail.count > 0) {
    faults.fail.count -= 1;
    const status = faults.fail.status;
    return { status, body: { error: { message: `Simulated ${status}: nothing ran`, type: status === 429 ? 'requests' : 'server_error', param: null, code: null } } };
  }
  const done = await work();
  if (done.status >= 300) return done;
  if (faults.hold.count > 0) {
    faults.hold.count -= 1;
    faults.held += 1;
    try {
      await delay(faults.hold.ms);
    } finally {
      faults.held -= 1;
    }
  }
  if (faults.lose > 0) {
    faults.lose -= 1;
    return { ...done, lose: LOST };
  }
  return done;
}

const LOST = { status: 502, body: { error: { message: 'Bad gateway (simulated: the work was done)', type: 'server_error', param: null, code: null } } };

async function readMultipart(request: FastifyRequest): Promise<{ fields: Fields; files: Record<string, SimFile[]> }> {
  const form = await new Response(request.body as Buffer, { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
  const fields: Fields = {};
  const files: Record<string, SimFile[]> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else (files[name] ??= []).push({ name: value.name, type: value.type, bytes: value.size });
  }
  return { fields, files };
}

function required(fields: Fields, name: string): SimAnswer | undefined {
  return typeof fields[name] === 'string' && fields[name] !== '' ? undefined : invalid(`${name} is required`, name);
}

function invalid(message: string, param: string | null, code: string | null = null): SimAnswer {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

function misbehaviour(text: unknown): SimAnswer | undefined {
  const said = typeof text === 'string' ? text : '';
  if (said.includes('sim:429')) return { status: 429, body: { error: { message: 'Rate limit reached (simulated)', type: 'requests', param: null, code: 'rate_limit_exceeded' } } };
  if (said.includes('sim:500')) return { status: 500, body: { error: { message: 'The server had an error (simulated)', type: 'server_error', param: null, code: null } } };
  if (said.includes('sim:refuse')) return invalid('Your request was rejected by the safety system (simulated)', null, 'moderation_blocked');
  return undefined;
}

function withLoss(text: unknown, answer: SimAnswer): SimAnswer {
  const lost = typeof text === 'string' && text.includes('sim:lost-once');
  return lost ? { ...answer, lose: LOST } : answer;
}
