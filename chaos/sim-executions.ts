/**
 * What really ran at the provider simulators, one record per execution, named as the ledger names its handle,
 * so "executed twice" is counted where the money would be spent and not only from Vetted's own records:
 *
 *   replicate  every prediction created                         id: the prediction id
 *   fal        every submission queued                          id: `<endpoint>/requests/<request id>`
 *   openai     every keyed call that ran (a replay of a stored  id: `openai:<Idempotency-Key>`
 *              Idempotency-Key is not one; neither are the LLM
 *              builder's chat completions, which carry no key)
 */
import type { CreatedPrediction } from '../src/sim/index.ts';
import type { FalSubmission } from '../src/sim/fal-sim.ts';

export type SimProvider = 'replicate' | 'fal' | 'openai';

export interface SimExecution {
  provider: SimProvider;
  /** The handle the provider adapter records in the ledger for this execution. */
  id: string;
  /** What the sim was sent (the tag in its prompt names the run). */
  input: Record<string, unknown>;
}

/** The sims' own logs, as far as the chaos run reads them. */
export interface ExecutingSims {
  replicate: { created(): CreatedPrediction[] };
  fal?: { submitted(): FalSubmission[] };
  openai?: { readonly executions: readonly { route: string; key: string | null; body: unknown }[] };
}

export function simExecutions(sims: ExecutingSims): SimExecution[] {
  const replicate = sims.replicate.created().map((p): SimExecution => ({ provider: 'replicate', id: p.id, input: p.input }));
  const fal = (sims.fal?.submitted() ?? []).map((s): SimExecution => ({ provider: 'fal', id: `${s.endpoint}/requests/${s.requestId}`, input: s.input }));
  const openai = (sims.openai?.executions ?? [])
    .map((e, i) => ({ ...e, i }))
    // The builder's chat completions send no key; a model route without one still ran, and is counted.
    .filter((e) => e.key !== null || e.route !== 'chat.completions')
    .map((e): SimExecution => ({ provider: 'openai', id: `openai:${e.key ?? `unkeyed-${e.i}`}`, input: asObject(e.body) }));
  return [...replicate, ...fal, ...openai];
}

/** Executions per provider, for the report: `replicate 412, fal 20, openai 31`. */
export function countByProvider(executions: readonly SimExecution[]): string {
  const counts = new Map<string, number>();
  for (const e of executions) counts.set(e.provider, (counts.get(e.provider) ?? 0) + 1);
  return [...counts].map(([provider, n]) => `${provider} ${n}`).join(', ') || 'none';
}

function asObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : { body };
}
