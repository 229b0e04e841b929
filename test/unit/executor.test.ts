import { describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../src/generated/contracts.ts';
import type { ExecutionHandle, ExecutionRequest, ModelProvider } from '../../src/ports.ts';
import { executeOnce, isNotStartedError, isThrottledError, ProviderNotStartedError, ProviderThrottledError, type ExecutionLedger, type LedgerEntry } from '../../src/stages/executor.ts';
import { deferringLedger } from '../../src/engine/visit-ledger.ts';

/**
 * An in-memory ledger with the same contract as the executions table. `run.attempt` stands for the run's
 * current execute visit: a write that names another visit is refused (undefined), as in PostgreSQL.
 */
function memoryLedger(): ExecutionLedger & { rows: Map<string, LedgerEntry>; run: { attempt: number } } {
  const rows = new Map<string, LedgerEntry>();
  const run = { attempt: 1 };
  const leftVisit = (runAttempt: number | undefined) => runAttempt !== undefined && runAttempt !== run.attempt;
  return {
    rows,
    run,
    async begin({ runId, step, runAttempt }) {
      const key = `${runId}/${step}`;
      const existing = rows.get(key);
      if (existing) return { fresh: false, row: existing };
      if (leftVisit(runAttempt)) return undefined;
      const row: LedgerEntry = { status: 'started', predictionId: null, result: null };
      rows.set(key, row);
      return { fresh: true, row };
    },
    async recordHandle(runId, step, predictionId) {
      rows.get(`${runId}/${step}`)!.predictionId = predictionId;
    },
    async finish(runId, step, result) {
      const row = rows.get(`${runId}/${step}`)!;
      row.status = result.status === 'succeeded' ? 'succeeded' : 'failed';
      row.result = result;
    },
    async release(runId, step) {
      const row = rows.get(`${runId}/${step}`);
      if (row?.status === 'started' && row.predictionId === null) rows.delete(`${runId}/${step}`);
    },
  };
}

/** A provider whose first `failures` create calls are refused before anything exists (connection refused). */
function refusingProvider(failures: number, options: { reportHandleFirst?: boolean } = {}) {
  const calls = { execute: 0 };
  const provider: ModelProvider = {
    name: 'refusing',
    sideEffectFree: false,
    async execute(_request, onStarted) {
      calls.execute++;
      if (options.reportHandleFirst) await onStarted({ predictionId: `p${calls.execute}` });
      if (calls.execute <= failures) throw new ProviderNotStartedError('PROVIDER_UNAVAILABLE', 'connect ECONNREFUSED 127.0.0.1:9');
      return { provider: 'refusing', status: 'succeeded', output: 'ok', predictionId: `p${calls.execute}` };
    },
  };
  return { provider, calls };
}

function countingProvider(options: { sideEffectFree: boolean; crashAfterStart?: boolean; resumable?: boolean }) {
  const calls = { execute: 0, resume: 0 };
  const result = (id: string): ExecutionResult => ({ provider: 'counting', status: 'succeeded', output: id, predictionId: id });
  const provider: ModelProvider = {
    name: 'counting',
    sideEffectFree: options.sideEffectFree,
    async execute(_request: ExecutionRequest, onStarted: (h: ExecutionHandle) => Promise<void>) {
      calls.execute++;
      await onStarted({ predictionId: `p${calls.execute}` });
      if (options.crashAfterStart && calls.execute === 1) throw new Error('worker died');
      return result(`p${calls.execute}`);
    },
    ...(options.resumable ? { resume: async (handle: ExecutionHandle) => { calls.resume++; return result(handle.predictionId); } } : {}),
  };
  return { provider, calls };
}

const request: ExecutionRequest = { runId: 'r1', step: 'execute:1', model: 'a/b', version: null, payload: { prompt: 'x' } };

describe('executeOnce', () => {
  it('executes once, then reuses the recorded outcome', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = countingProvider({ sideEffectFree: false });
    expect((await executeOnce({ request, payloadHash: 'h', provider, ledger })).kind).toBe('executed');
    const again = await executeOnce({ request, payloadHash: 'h', provider, ledger });
    expect(again).toMatchObject({ kind: 'reused', result: { predictionId: 'p1' } });
    expect(calls.execute).toBe(1);
  });

  it('after a crash mid-execution, resumes through the recorded handle instead of starting again', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = countingProvider({ sideEffectFree: false, crashAfterStart: true, resumable: true });
    await expect(executeOnce({ request, payloadHash: 'h', provider, ledger })).rejects.toThrow('worker died');
    const retried = await executeOnce({ request, payloadHash: 'h', provider, ledger });
    expect(retried).toMatchObject({ kind: 'resumed', result: { predictionId: 'p1' } });
    expect(calls).toEqual({ execute: 1, resume: 1 });
  });

  it('without a handle or a way to resume, a provider with side effects is never repeated: the outcome is uncertain', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = countingProvider({ sideEffectFree: false, crashAfterStart: true });
    await expect(executeOnce({ request, payloadHash: 'h', provider, ledger })).rejects.toThrow();
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger })).toEqual({ kind: 'uncertain', predictionId: 'p1' });
    expect(calls.execute).toBe(1);
  });

  it('a side-effect-free provider whose attempt died is repeated; a recorded outcome is reused without running it again', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = countingProvider({ sideEffectFree: true, crashAfterStart: true });
    await expect(executeOnce({ request, payloadHash: 'h', provider, ledger })).rejects.toThrow();
    expect(ledger.rows.get('r1/execute:1')?.status).toBe('started');
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger })).toMatchObject({ kind: 'repeated', result: { predictionId: 'p2' } });
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger })).toMatchObject({ kind: 'reused', result: { predictionId: 'p2' } });
    expect(calls.execute).toBe(2);
    expect(ledger.rows.size).toBe(1);
  });

  it('a provider that proves nothing was created releases the ledger row, so the retry starts afresh', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = refusingProvider(1);
    const failure = await executeOnce({ request, payloadHash: 'h', provider, ledger }).catch((error: unknown) => error);
    expect(isNotStartedError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(ledger.rows.size).toBe(0);
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger })).toMatchObject({ kind: 'executed', result: { predictionId: 'p2' } });
    expect(calls.execute).toBe(2);
  });

  it('a "too many requests" is a retryable refusal that created nothing, told apart from other refusals', () => {
    const throttled = new ProviderThrottledError('Replicate rate-limited the prediction (429)');
    expect(throttled).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(isNotStartedError(throttled)).toBe(true);
    expect(isThrottledError(throttled)).toBe(true);
    expect(isThrottledError(new ProviderNotStartedError('PROVIDER_UNAVAILABLE', 'connect ECONNREFUSED 127.0.0.1:9'))).toBe(false);
  });

  it('a "not started" claim after a handle was recorded is not believed: the row stays and the retry is uncertain', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = refusingProvider(1, { reportHandleFirst: true });
    await expect(executeOnce({ request, payloadHash: 'h', provider, ledger })).rejects.toThrow('ECONNREFUSED');
    expect(ledger.rows.get('r1/execute:1')).toMatchObject({ status: 'started', predictionId: 'p1' });
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger })).toEqual({ kind: 'uncertain', predictionId: 'p1' });
    expect(calls.execute).toBe(1);
  });

  it('a run that left its execute visit (cancelled, say) is not started on a provider with side effects', async () => {
    const ledger = memoryLedger();
    const { provider, calls } = countingProvider({ sideEffectFree: false });
    ledger.run.attempt = 2;
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger, runAttempt: 1 })).toEqual({ kind: 'superseded' });
    expect(calls.execute).toBe(0);
    expect(ledger.rows.size).toBe(0);
    expect((await executeOnce({ request, payloadHash: 'h', provider, ledger, runAttempt: 2 })).kind).toBe('executed');
  });

  it("on a visit's first try, a side-effect-free step is left for the run's move to record (deferringLedger)", async () => {
    const ledger = memoryLedger();
    const deferring = deferringLedger(ledger);
    const { provider, calls } = countingProvider({ sideEffectFree: true });
    const outcome = await executeOnce({ request, payloadHash: 'h', provider, ledger: deferring, runAttempt: 1 });
    const result = { provider: 'counting', status: 'succeeded', output: 'p1', predictionId: 'p1' };
    expect(outcome).toEqual({ kind: 'executed', result });
    expect(deferring.deferredRecord()).toEqual({ step: 'execute:1', provider: 'counting', payloadHash: 'h', result });
    expect(calls.execute).toBe(1);
    expect(ledger.rows.size).toBe(0);
  });

  it('deferring never applies to a provider with side effects: the ledger still goes first', async () => {
    const ledger = memoryLedger();
    const deferring = deferringLedger(ledger);
    const { provider } = countingProvider({ sideEffectFree: false });
    expect((await executeOnce({ request, payloadHash: 'h', provider, ledger: deferring })).kind).toBe('executed');
    expect(ledger.rows.get('r1/execute:1')?.status).toBe('succeeded');
    expect(deferring.deferredRecord()).toBeUndefined();
  });

  it('a side-effect-free answer for a run that left its visit is dropped, not recorded', async () => {
    const ledger = memoryLedger();
    const { provider } = countingProvider({ sideEffectFree: true });
    ledger.run.attempt = 3;
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger, runAttempt: 2 })).toEqual({ kind: 'superseded' });
    expect(ledger.rows.size).toBe(0);
  });
});
