/** Builds the one canonical PendingReview for a parked run. */
import type { CandidatePayload, PendingReview, ValidationIssue } from '../generated/contracts.ts';
import type { ParkReason } from '../stages/gate.ts';
import { payloadHash } from '../stages/gate.ts';
import { reviewOptions } from './resume-routing.ts';

export interface NewReviewInput {
  park: ParkReason;
  issues: readonly ValidationIssue[];
  candidate: CandidatePayload | null;
  schemaHash: string;
  now: Date;
  ttlSeconds: number;
  reviewId: string;
  quorum?: number;
  output?: unknown;
}

export function createPendingReview(input: NewReviewInput): PendingReview {
  return {
    reviewId: input.reviewId,
    kind: input.park.kind,
    checkpoint: input.park.checkpoint,
    reason: input.park.reason,
    question: input.park.question,
    expectedInput: 'single_choice',
    options: reviewOptions(input.park.checkpoint, input.candidate !== null),
    issues: [...input.issues],
    candidate: input.candidate,
    ...(input.output === undefined ? {} : { output: input.output }),
    payloadHash: payloadHash(input.candidate),
    schemaHash: input.schemaHash,
    ...(input.quorum && input.quorum > 1 ? { quorum: input.quorum, approvals: [] } : {}),
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1000).toISOString(),
  };
}
