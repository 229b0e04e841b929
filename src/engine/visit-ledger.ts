/**
 * The ledger a stage visit executes against. On a visit's first try, a step whose provider has no effect
 * outside Vetted (the dry provider) is not written before it runs: its record waits here and rides on the
 * run's move that ends the visit (StoreWrite.ledger), one statement instead of three.
 *
 * Why only on a first try: a step whose move committed has left the visit, so its job can no longer claim it;
 * anything else (a retry, a stalled job started again, a move that missed) may find the step recorded by an
 * earlier try, and must ask the real ledger before running anything. When the move that was to carry the
 * record misses, the visit runs again against the real ledger, whose answer says which happened
 * (src/engine/visit.ts). Providers with side effects always go through the real ledger first.
 */
import type { ExecutionResult } from '../generated/contracts.ts';
import type { ExecutionLedger, LedgerAnswer, LedgerBegin, LedgerRecord } from '../stages/executor.ts';

export interface VisitLedger extends ExecutionLedger {
  /** The record that must be committed with the visit's move, if a step was deferred and finished. */
  deferredRecord(): LedgerRecord | undefined;
}

/** The store's ledger as is: every step is written before its provider runs. */
export function directLedger(ledger: ExecutionLedger): VisitLedger {
  return {
    begin: (input) => ledger.begin(input),
    recordHandle: (runId, step, predictionId) => ledger.recordHandle(runId, step, predictionId),
    finish: (runId, step, result) => ledger.finish(runId, step, result),
    release: (runId, step) => ledger.release(runId, step),
    deferredRecord: () => undefined,
  };
}

/** Defers side-effect-free steps to the visit's move; everything else goes to the store's ledger. */
export function deferringLedger(ledger: ExecutionLedger): VisitLedger {
  let deferred: Omit<LedgerRecord, 'result'> | undefined;
  let record: LedgerRecord | undefined;
  const isDeferred = (step: string) => deferred?.step === step;
  return {
    async begin(input: LedgerBegin): Promise<LedgerAnswer> {
      if (!input.sideEffectFree) return ledger.begin(input);
      deferred = { step: input.step, provider: input.provider, payloadHash: input.payloadHash };
      return { fresh: true, row: { status: 'started', predictionId: null, result: null } };
    },
    async recordHandle(runId, step, predictionId) {
      if (!isDeferred(step)) await ledger.recordHandle(runId, step, predictionId);
    },
    async finish(runId: string, step: string, result: ExecutionResult) {
      if (deferred && isDeferred(step)) record = { ...deferred, result };
      else await ledger.finish(runId, step, result);
    },
    async release(runId, step) {
      if (isDeferred(step)) deferred = undefined;
      else await ledger.release(runId, step);
    },
    deferredRecord: () => record,
  };
}
