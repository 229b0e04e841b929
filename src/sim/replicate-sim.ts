/**
 * A local server that speaks the part of Replicate's HTTP API Vetted uses, for tests, benchmarks and
 * `vetted demo --sim`, driven through the real `replicate` SDK:
 *
 *   GET  /v1/models/{owner}/{name}                   a model object (from the models directory)
 *   GET  /v1/models/{owner}/{name}/versions/{id}     a version object (openapi_schema may be null)
 *   POST /v1/predictions                             create by version
 *   POST /v1/models/{owner}/{name}/predictions       create by model (its latest version)
 *   GET  /v1/predictions/{id}                        poll
 *   POST /v1/predictions/{id}/cancel                 cancel
 *   GET  /files/{id}/{name}                          the outputs (a 1×1 PNG)
 *
 * Control: `outcome` (or `sim:fail` / `sim:cancel` / `sim:hang` in an input), `stepMs`, `failNextCreates`
 * (429 or any status, to exhaust the SDK's own retries) and `sim:429` in an input (always 429). Webhooks are
 * POSTed when a prediction is created with a `webhook` URL. `created()` is the log of predictions.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { bearerToken, createSimApp, listen, type SimListenOptions } from './http.ts';
import { DEFAULT_MODELS_DIR, SimModelCatalog, type JsonObject } from './replicate-catalog.ts';
import { SimPredictions, type CreatedPrediction, type PredictionOutcome, type PredictionSettings } from './replicate-predictions.ts';

export interface ReplicateSimOptions extends SimListenOptions {
  /** Directory of model files to serve; null serves none (default: examples/models). */
  modelsDir?: string | null;
  /** Time per status step (default 50 ms; 0 = finished at the first poll). */
  stepMs?: number;
  /** How predictions end unless their input carries a marker (default `succeed`). */
  outcome?: PredictionOutcome;
  /** When set, any other bearer token gets 401. */
  apiToken?: string;
}

export interface SimRequest {
  method: string;
  path: string;
  /** The bearer token sent (tests prove which token the SDK used). */
  token: string | null;
}

export interface ReplicateSim {
  /** The SDK's `baseUrl`, ending in `/v1`. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: SimRequest[];
  readonly catalog: SimModelCatalog;
  /** Every prediction created, oldest first. */
  created(): CreatedPrediction[];
  setOutcome(outcome: PredictionOutcome): void;
  /** The next `count` create calls answer `status` (default 429) and create nothing. */
  failNextCreates(count: number, status?: number): void;
  close(): Promise<void>;
}

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export async function startReplicateSim(options: ReplicateSimOptions = {}): Promise<ReplicateSim> {
  const catalog = new SimModelCatalog();
  const modelsDir = options.modelsDir === undefined ? DEFAULT_MODELS_DIR : options.modelsDir;
  if (modelsDir !== null) catalog.loadDirectory(modelsDir);
  const settings: PredictionSettings = { stepMs: options.stepMs ?? 50, outcome: options.outcome ?? 'succeed' };
  const failures = { count: 0, status: 429 };
  const requests: SimRequest[] = [];
  const app = createSimApp();
  const holder: { predictions?: SimPredictions } = {};
  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request);
    requests.push({ method: request.method, path: request.url, token });
    if (options.apiToken !== undefined && token !== options.apiToken && request.url.startsWith('/v1/')) {
      return reply.code(401).send({ title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
    }
  });
  const predictions = () => holder.predictions as SimPredictions;
  registerModelRoutes(app, catalog);
  registerPredictionRoutes(app, catalog, predictions, failures);
  app.get('/files/:id/:name', async (_request, reply) => reply.type('image/png').send(PNG_1X1));
  const origin = await listen(app, options);
  holder.predictions = new SimPredictions(origin, settings);
  return {
    baseUrl: `${origin}/v1`,
    requests,
    catalog,
    created: () => predictions().created(),
    setOutcome(outcome) {
      settings.outcome = outcome;
    },
    failNextCreates(count, status = 429) {
      failures.count = count;
      failures.status = status;
    },
    async close() {
      predictions().close();
      await app.close();
    },
  };
}

type Params = Record<string, string>;

function registerModelRoutes(app: FastifyInstance, catalog: SimModelCatalog): void {
  app.get('/v1/models/:owner/:name', async (request, reply) => {
    const { owner, name } = request.params as Params;
    const model = catalog.model(`${owner}/${name}`);
    return model ?? notFound(reply);
  });
  app.get('/v1/models/:owner/:name/versions/:id', async (request, reply) => {
    const { owner, name, id } = request.params as Params;
    const version = catalog.version(id ?? '', `${owner}/${name}`);
    return version ?? notFound(reply);
  });
}

function registerPredictionRoutes(app: FastifyInstance, catalog: SimModelCatalog, predictions: () => SimPredictions, failures: { count: number; status: number }): void {
  const refuse = (reply: FastifyReply, body: JsonObject): FastifyReply | undefined => {
    if (failures.count > 0) {
      failures.count -= 1;
      return reply.code(failures.status).send({ title: 'Simulated failure', detail: `simulated HTTP ${failures.status}`, status: failures.status });
    }
    if (JSON.stringify(body.input ?? null).includes('sim:429')) {
      return reply.code(429).send({ title: 'Too Many Requests', detail: 'Request was throttled (simulated by sim:429)', status: 429 });
    }
    return undefined;
  };
  app.post('/v1/predictions', async (request, reply) => {
    const body = (request.body ?? {}) as JsonObject;
    const refused = refuse(reply, body);
    if (refused) return refused;
    const versionId = typeof body.version === 'string' ? (body.version.split(':').at(-1) ?? '') : '';
    if (!catalog.version(versionId)) return invalid(reply, 'Invalid version or not permitted');
    if (!isObject(body.input)) return invalid(reply, 'input is required');
    const webhook = typeof body.webhook === 'string' ? body.webhook : undefined;
    return reply.code(201).send(predictions().create({ model: catalog.modelOfVersion(versionId), version: versionId, input: body.input, webhook, filter: body.webhook_events_filter }));
  });
  app.post('/v1/models/:owner/:name/predictions', async (request, reply) => {
    const { owner, name } = request.params as Params;
    const body = (request.body ?? {}) as JsonObject;
    const model = catalog.model(`${owner}/${name}`);
    if (!model) return notFound(reply);
    const refused = refuse(reply, body);
    if (refused) return refused;
    if (!isObject(body.input)) return invalid(reply, 'input is required');
    const latest = isObject(model.latest_version) && typeof model.latest_version.id === 'string' ? model.latest_version.id : null;
    const webhook = typeof body.webhook === 'string' ? body.webhook : undefined;
    return reply.code(201).send(predictions().create({ model: `${owner}/${name}`, version: latest, input: body.input, webhook, filter: body.webhook_events_filter }));
  });
  app.get('/v1/predictions/:id', async (request, reply) => predictions().get((request.params as Params).id ?? '') ?? notFound(reply));
  app.post('/v1/predictions/:id/cancel', async (request, reply) => predictions().cancel((request.params as Params).id ?? '') ?? notFound(reply));
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ title: 'Not found', detail: 'Not found.', status: 404 });
}

function invalid(reply: FastifyReply, detail: string): FastifyReply {
  return reply.code(422).send({ title: 'Invalid input', detail, status: 422 });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
