/** A run row as the Run contract (schemas/run.schema.json): what the CLI prints and the API returns. */
import type { Run } from '../generated/contracts.ts';
import type { RunRow } from './run-rows.ts';

export function toRunView(row: RunRow): Run {
  return {
    id: row.id,
    tenantId: row.tenantId,
    status: row.status,
    stage: row.stage,
    requestKey: row.requestKey,
    traceId: row.traceId,
    threadId: row.threadId,
    userId: row.userId,
    sessionId: row.sessionId,
    model: row.model,
    schemaHash: row.schemaHash,
    builder: row.builder,
    provider: row.provider,
    policy: row.policy,
    bundle: row.bundle,
    candidate: row.candidate,
    issues: row.issues,
    pendingReview: row.pendingReview,
    result: row.result,
    error: row.error,
    pausedFrom: row.pausedFrom,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    ...(row.purgedAt ? { purgedAt: row.purgedAt.toISOString() } : {}),
  };
}
