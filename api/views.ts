/** What the API returns for runs and reviews: the contract shape plus links and timings. */
import { snoozedUntil } from '../src/review/snooze.ts';
import type { DecisionRow, RunEventRow, RunRow } from '../src/engine/run-rows.ts';
import { toRunView } from '../src/engine/run-view.ts';
import type { ModelSchema, PendingReview, ReviewSla, Run } from '../src/generated/contracts.ts';
import { isSecretKey, REDACTED } from '../src/observability/redact.ts';
import { canonicalHash } from '../src/util/canonical-hash.ts';

export function runLinks(runId: string, review?: PendingReview | null): Record<string, string> {
  return {
    self: `/api/runs/${runId}`,
    state: `/api/runs/${runId}/state`,
    events: `/api/runs/${runId}/events`,
    ...(review ? { review: `/api/reviews/${review.reviewId}`, decision: `/api/runs/${runId}/decision` } : {}),
  };
}

export function runResource(row: RunRow, events?: readonly RunEventRow[], now = new Date()): Run {
  const view = toRunView(row);
  const stagesMs: Record<string, number> = {};
  for (const event of events ?? []) {
    const { stage, durationMs } = event.data as { stage?: string; durationMs?: number };
    if (event.type === 'stage.completed' && stage && typeof durationMs === 'number') stagesMs[stage] = (stagesMs[stage] ?? 0) + durationMs;
  }
  return {
    ...view,
    links: runLinks(row.id, row.pendingReview),
    ...(events
      ? {
          timings: {
            totalMs: row.completedAt ? row.completedAt.getTime() - row.createdAt.getTime() : null,
            stagesMs,
            waitingForHumanMs: row.parkedAt && row.status === 'awaiting_human' ? now.getTime() - row.parkedAt.getTime() : null,
          },
        }
      : {}),
  };
}

export interface FieldReview {
  field: string;
  value: unknown;
  hasDefault: boolean;
  default?: unknown;
  /** True when the value differs from the schema default (or there is no default). */
  changed: boolean;
  provenance: { source: string; evidence?: string; confidence?: number } | null;
  required: boolean;
}

/** Each schema field with the candidate's value, its provenance and the diff from the schema default. */
export function fieldReview(review: PendingReview, schema: ModelSchema | undefined): FieldReview[] {
  const payload = (review.candidate?.payload ?? {}) as Record<string, unknown>;
  const fields = schema?.fields ?? Object.keys(payload).map((name) => ({ name, hasDefault: false, default: undefined, required: false }));
  return fields.map((spec) => {
    const present = Object.hasOwn(payload, spec.name);
    // The value sits under `value`, not under its field's name, so the answer's masking cannot see it.
    const hidden = ('role' in spec && spec.role === 'secret') || isSecretKey(spec.name);
    const shown = (value: unknown) => (hidden && value !== null && value !== '' ? REDACTED : value);
    return {
      field: spec.name,
      value: present ? shown(payload[spec.name]) : null,
      hasDefault: spec.hasDefault,
      ...(spec.hasDefault ? { default: shown(spec.default) } : {}),
      changed: present && (!spec.hasDefault || canonicalHash(spec.default) !== canonicalHash(payload[spec.name])),
      provenance: review.candidate?.provenance[spec.name] ?? null,
      required: spec.required,
    };
  });
}

/** @param viewer the actor reading the queue: their own snooze is shown (`snoozedUntil`). */
export function reviewSummary(row: RunRow, now = new Date(), viewer?: string) {
  const review = row.pendingReview;
  if (!review) return undefined;
  const claimed = row.claimedBy !== null && row.claimExpiresAt !== null && row.claimExpiresAt >= now;
  return {
    reviewId: review.reviewId,
    runId: row.id,
    model: row.model,
    kind: review.kind,
    checkpoint: review.checkpoint,
    reason: review.reason,
    question: review.question,
    ...(review.summary ? { summary: review.summary } : {}),
    expectedInput: review.expectedInput,
    ...(review.team ? { team: review.team } : {}),
    payloadHash: review.payloadHash,
    issues: review.issues,
    blockingIssues: review.issues.filter((i) => i.severity === 'blocking').length,
    claimedBy: claimed ? row.claimedBy : null,
    claimExpiresAt: claimed ? (row.claimExpiresAt?.toISOString() ?? null) : null,
    assignedTo: row.assignedTo,
    snoozedUntil: viewer === undefined ? null : snoozedUntil(row, viewer, now),
    createdAt: review.createdAt,
    expiresAt: review.expiresAt,
    sla: slaView(review),
    links: { review: `/api/reviews/${review.reviewId}`, run: `/api/runs/${row.id}` },
  };
}

/** A review's reminder and escalation (policy.sla): when each is due, who it escalates to, what happened. */
export function slaView(review: PendingReview): ReviewSla | null {
  return review.sla ?? null;
}

/** A decision row as the API shows it (the review itself is shown apart, once). */
export function decisionView(decision: DecisionRow) {
  return {
    id: String(decision.id),
    reviewId: decision.reviewId,
    runId: decision.runId,
    actor: decision.actor,
    action: decision.action,
    raw: decision.raw,
    parsed: decision.parsed,
    edits: decision.edits,
    override: decision.override,
    at: decision.at.toISOString(),
  };
}
