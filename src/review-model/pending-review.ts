/** Builds the one canonical PendingReview for a parked run: the reviewer's facts and the person's question. */
import type { CandidatePayload, ModelSchema, PendingReview, ReviewSla, ValidationIssue } from '../generated/contracts.ts';
import type { ParkReason } from '../stages/gate.ts';
import { payloadHash } from '../stages/gate.ts';
import { buildQuestion } from './question/build-question.ts';
import type { Locale } from './question/messages.ts';
import { isTextOutput, outputHash } from './edit-output.ts';
import { reviewActions } from './resume-routing.ts';

export interface NewReviewInput {
  park: ParkReason;
  issues: readonly ValidationIssue[];
  candidate: CandidatePayload | null;
  schemaHash: string;
  now: Date;
  ttlSeconds: number;
  reviewId: string;
  /** The stage visit that raised it (`validate:7`). */
  originStepId: string;
  locale: Locale;
  schema?: ModelSchema;
  safetyFlags?: readonly string[];
  quorum?: number;
  team?: string;
  /** Its reminder and escalation, when the policy sets them (sla.ts scheduleSla). */
  sla?: ReviewSla;
  output?: unknown;
}

export function createPendingReview(input: NewReviewInput): PendingReview {
  const ask = buildQuestion({ why: input.park, issues: input.issues, candidate: input.candidate, schema: input.schema, safetyFlags: input.safetyFlags, locale: input.locale });
  return {
    reviewId: input.reviewId,
    kind: input.park.kind,
    checkpoint: input.park.checkpoint,
    reason: input.park.reason,
    source: ask.source,
    question: ask.question,
    summary: input.park.question,
    locale: ask.locale,
    expectedInput: ask.expectedInput,
    options: ask.options,
    ...(ask.answerField ? { answerField: ask.answerField } : {}),
    returnTo: ask.returnTo,
    actions: reviewActions(input.park.checkpoint, input.candidate !== null, isTextOutput(input.output)),
    originStepId: input.originStepId,
    reAsks: 0,
    ...(input.team ? { team: input.team } : {}),
    issues: [...input.issues],
    candidate: input.candidate,
    ...(input.output === undefined ? {} : { output: input.output, outputHash: outputHash(input.output) }),
    payloadHash: payloadHash(input.candidate),
    schemaHash: input.schemaHash,
    ...(input.quorum && input.quorum > 1 ? { quorum: input.quorum, approvals: [] } : {}),
    ...(input.sla ? { sla: input.sla } : {}),
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000).toISOString(),
  };
}
