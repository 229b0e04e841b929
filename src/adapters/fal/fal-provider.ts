/**
 * The `fal` ModelProvider, on the official `@fal-ai/client`, through fal's queue: submit, poll the status,
 * fetch the result, cancel. Ledger-safe as the Replicate provider is: the request id is reported through
 * `onStarted` before any waiting (a crash resumes the same request instead of submitting again), and a
 * submission that may have reached fal is never repeated (submit-guard.ts stops the client's own retries).
 *
 * The handle the ledger keeps is `<endpoint>/requests/<request id>`, so resume and cancel know the endpoint.
 * With `webhookUrl` set, each submission asks fal to POST there when the request is done; a delivery that
 * fal signed (fal-webhooks.ts) ends the sleep between two status reads early.
 */
import { ApiError, createFalClient, type FalClient } from '@fal-ai/client';
import { VettedError } from '../../errors.ts';
import type { ExecutionResult } from '../../generated/contracts.ts';
import type { ExecutionHandle, ExecutionRequest, ModelProvider } from '../../ports.ts';
import { ProviderNotStartedError, ProviderThrottledError } from '../../stages/executor.ts';
import { createFalWebhooks, type FalWebhooks } from './fal-webhooks.ts';
import { createJwksKeys, FAL_DEFAULT_JWKS_URL, type FalSigningKeys } from './jwks-keys.ts';
import { guardedFetch, SubmitUncertainError } from './submit-guard.ts';

export const FAL_PROVIDER_NAME = 'fal';
const FAL_QUEUE_ORIGIN = 'https://queue.fal.run';

export interface FalConfig {
  apiKey: string;
  /** Where the client's queue requests go instead of https://queue.fal.run (a proxy, or a local server). */
  baseUrl?: string;
  pollIntervalMs: number;
  timeoutMs: number;
  /** Where fal should POST when a request is done (the public URL of `POST /api/webhooks/fal`); unset = poll only. */
  webhookUrl?: string;
  /** fal's webhook signing keys (default https://rest.alpha.fal.ai/.well-known/jwks.json). */
  jwksUrl?: string;
}

/** The fal provider: a ModelProvider that also takes fal's signed webhooks. */
export type FalProvider = ModelProvider & { readonly webhooks: FalWebhooks };

export function createFalClientFor(config: FalConfig): FalClient {
  const base = config.baseUrl?.replace(/\/$/, '');
  return createFalClient({
    credentials: config.apiKey,
    fetch: guardedFetch,
    ...(base ? { requestMiddleware: async (request) => ({ ...request, url: request.url.replace(FAL_QUEUE_ORIGIN, base) }) } : {}),
  });
}

/**
 * @param signingKeys fal's webhook keys; by default read from `config.jwksUrl` on the real clock (a test
 *   passes a set on a clock of its own, to see a rotation picked up without waiting a minute).
 */
export function createFalProvider(
  config: FalConfig,
  client: FalClient = createFalClientFor(config),
  signingKeys: FalSigningKeys = createJwksKeys({ url: config.jwksUrl ?? FAL_DEFAULT_JWKS_URL }),
): FalProvider {
  const webhooks = createFalWebhooks(signingKeys);
  const wait = (handle: ExecutionHandle, signal?: AbortSignal) => waitForResult(client, parseHandle(handle), { ...config, webhooks }, signal);
  return {
    name: FAL_PROVIDER_NAME,
    sideEffectFree: false,
    webhooks,
    async execute(request, onStarted) {
      const endpoint = endpointOf(request);
      const submitted = await submit(client, endpoint, request, config.webhookUrl);
      const handle = { predictionId: `${endpoint}/requests/${submitted}` };
      await onStarted(handle);
      return wait(handle, request.signal);
    },
    resume: (handle, request) => wait(handle, request.signal),
    async cancel(handle) {
      const { endpoint, requestId } = parseHandle(handle);
      try {
        await client.queue.cancel(endpoint, { requestId });
      } catch (error) {
        throw new VettedError('PROVIDER_UNAVAILABLE', `fal did not cancel request ${requestId}: ${describe(error)}`);
      }
    },
  };
}

function endpointOf(request: ExecutionRequest): string {
  if (!request.model) throw new ProviderNotStartedError('PROVIDER_FAILED', 'The run names no fal endpoint to run', { field: 'model' });
  return request.model;
}

async function submit(client: FalClient, endpoint: string, request: ExecutionRequest, webhookUrl: string | undefined): Promise<string> {
  try {
    const queued = await client.queue.submit(endpoint, { input: request.payload, abortSignal: request.signal, ...(webhookUrl ? { webhookUrl } : {}) });
    return queued.request_id;
  } catch (error) {
    throw submitFailure(error, endpoint);
  }
}

/** What a failed submission means for the ledger: nothing was queued (released), or maybe (a person decides). */
function submitFailure(error: unknown, endpoint: string): unknown {
  if (error instanceof Error && error.name === 'AbortError') return error;
  if (error instanceof SubmitUncertainError) {
    return new VettedError('PROVIDER_UNAVAILABLE', `The submission to fal ${endpoint} was interrupted (${error.message}); it may or may not be queued`);
  }
  if (error instanceof ApiError) {
    if (error.status === 429) return new ProviderThrottledError(`fal did not queue ${endpoint} (429, too many requests); it will be tried again`);
    if (error.status === 503) return new ProviderNotStartedError('PROVIDER_UNAVAILABLE', `fal did not queue ${endpoint} (503); it will be tried again`);
    if (error.status < 500) return new ProviderNotStartedError('PROVIDER_FAILED', `fal refused ${endpoint}: ${describe(error)}`);
    return new VettedError('PROVIDER_UNAVAILABLE', `fal failed while queueing ${endpoint} (${describe(error)}); it may or may not be queued`);
  }
  // The guard lets only connection failures through (nothing was sent): nothing can have been queued.
  return new ProviderNotStartedError('PROVIDER_UNAVAILABLE', `fal could not be reached, nothing was queued: ${describe(error)}`);
}

async function waitForResult(
  client: FalClient,
  target: { endpoint: string; requestId: string },
  config: FalConfig & { webhooks: FalWebhooks },
  signal?: AbortSignal,
): Promise<ExecutionResult> {
  const base = { provider: FAL_PROVIDER_NAME, predictionId: `${target.endpoint}/requests/${target.requestId}` };
  const deadline = Date.now() + config.timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const status = await client.queue.status(target.endpoint, { requestId: target.requestId });
    if (status.status === 'COMPLETED') return resultOf(client, target, base);
    if (Date.now() >= deadline) {
      const canceled = await client.queue.cancel(target.endpoint, { requestId: target.requestId }).then(() => true, () => false);
      const action = canceled ? 'it was canceled' : 'canceling it failed, check it on fal';
      return { ...base, status: 'failed', output: null, error: `timed out after ${config.timeoutMs} ms waiting for fal request ${target.requestId}; ${action}` };
    }
    // A signed webhook for this request ends the sleep early; an abort ends it too, and the loop's check throws.
    await config.webhooks.sleep(target.requestId, config.pollIntervalMs, signal);
  }
}

async function resultOf(client: FalClient, target: { endpoint: string; requestId: string }, base: { provider: string; predictionId: string }): Promise<ExecutionResult> {
  try {
    const result = await client.queue.result(target.endpoint, { requestId: target.requestId });
    return { ...base, status: 'succeeded', output: result.data ?? null, metrics: { status: 'COMPLETED' } };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { ...base, status: 'failed', output: null, error: `fal request failed: ${describe(error)}` };
    throw new VettedError('PROVIDER_UNAVAILABLE', `fal did not return the result of ${target.requestId}: ${describe(error)}`);
  }
}

function parseHandle(handle: ExecutionHandle): { endpoint: string; requestId: string } {
  const at = handle.predictionId.lastIndexOf('/requests/');
  if (at <= 0) throw new VettedError('INTERNAL', `"${handle.predictionId}" is not a fal request handle`);
  return { endpoint: handle.predictionId.slice(0, at), requestId: handle.predictionId.slice(at + '/requests/'.length) };
}

function describe(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} ${typeof error.body === 'object' ? JSON.stringify(error.body) : String(error.message)}`.slice(0, 500);
  return error instanceof Error ? error.message : String(error);
}
