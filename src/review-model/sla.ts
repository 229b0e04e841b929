/**
 * A review's service level (policy.sla), as pure rules: the times that apply at a checkpoint, when a new
 * review's reminder and escalation are due, which step is due next, and what each step changes on the review.
 * The engine turns the steps into moves (src/engine/moves.ts `remind` / `escalate`) fired by durable timers
 * (src/engine/sla-steps.ts); nothing here reads a clock or a store.
 */
import { VettedError } from '../errors.ts';
import type { EscalationTarget, PendingReview, PolicySpec, ReviewSla, SlaSteps } from '../generated/contracts.ts';

export type SlaStep = 'remind' | 'escalate';
export const SLA_STEPS: readonly SlaStep[] = ['remind', 'escalate'];

type Checkpoint = PendingReview['checkpoint'];

/** The times for reviews at `checkpoint`: the checkpoint's own fields replace the policy-wide ones. */
export function slaAt(policy: Pick<PolicySpec, 'sla'>, checkpoint: Checkpoint): SlaSteps {
  const { checkpoints, ...steps } = policy.sla ?? {};
  return { ...steps, ...checkpoints?.[checkpoint] };
}

/**
 * What the policy's SLA asks that its schema cannot say, checked where the request comes in.
 * @throws VettedError INVALID_REQUEST naming the field (`policy.sla.escalateTo`, `policy.sla.checkpoints.payload_review.remindAfterSeconds`…).
 */
export function assertSlaPolicy(policy: Pick<PolicySpec, 'sla' | 'reviewTtlSeconds'>, defaultTtlSeconds: number): void {
  const sla = policy.sla;
  if (!sla) return;
  const ttl = policy.reviewTtlSeconds ?? defaultTtlSeconds;
  const ttlName = policy.reviewTtlSeconds === undefined ? `the server's review time-to-live (${ttl} s)` : `policy.reviewTtlSeconds (${ttl})`;
  const { checkpoints, ...top } = sla;
  const checkpointNames = Object.keys(checkpoints ?? {}) as Checkpoint[];
  const places: { at: string; steps: SlaSteps; given: SlaSteps }[] = [
    { at: 'policy.sla', steps: top, given: top },
    ...checkpointNames.map((checkpoint) => ({ at: `policy.sla.checkpoints.${checkpoint}`, steps: slaAt(policy, checkpoint), given: checkpoints?.[checkpoint] ?? {} })),
  ];
  for (const { at, steps, given } of places) {
    // A field is blamed where it was given; a field inherited from above is blamed above.
    const where = (field: keyof SlaSteps) => (given[field] !== undefined ? `${at}.${field}` : `policy.sla.${field}`);
    if (steps.escalateAfterSeconds !== undefined && !steps.escalateTo) {
      throw invalid(`${at}.escalateTo`, `is required with escalateAfterSeconds: say who an overdue review moves to ({ "team": … } or { "reviewers": [ … ] })`);
    }
    if (steps.escalateTo && steps.escalateAfterSeconds === undefined && given.escalateTo && (at !== 'policy.sla' || checkpointNames.length === 0)) {
      throw invalid(`${at}.escalateAfterSeconds`, 'is required with escalateTo: say after how many seconds the review escalates');
    }
    if (steps.remindAfterSeconds !== undefined && steps.remindAfterSeconds >= ttl) {
      throw invalid(where('remindAfterSeconds'), `(${steps.remindAfterSeconds}) must be less than ${ttlName}, or the review expires before anyone is reminded`);
    }
    if (steps.escalateAfterSeconds !== undefined && steps.escalateAfterSeconds >= ttl) {
      throw invalid(where('escalateAfterSeconds'), `(${steps.escalateAfterSeconds}) must be less than ${ttlName}, or the review expires before it escalates`);
    }
    if (steps.remindAfterSeconds !== undefined && steps.escalateAfterSeconds !== undefined && steps.remindAfterSeconds >= steps.escalateAfterSeconds) {
      throw invalid(where('remindAfterSeconds'), `(${steps.remindAfterSeconds}) must be less than escalateAfterSeconds (${steps.escalateAfterSeconds}): the reminder comes first`);
    }
  }
}

function invalid(field: string, reason: string): VettedError {
  return new VettedError('INVALID_REQUEST', `request: ${field} ${reason}`, { field });
}

/** A new review's SLA: when its steps are due, from `raisedAt`; undefined when the policy sets none here. */
export function scheduleSla(steps: SlaSteps, raisedAt: Date): ReviewSla | undefined {
  const at = (seconds: number | undefined) => (seconds === undefined ? undefined : new Date(raisedAt.getTime() + seconds * 1000).toISOString());
  const remindAt = at(steps.remindAfterSeconds);
  const escalateAt = steps.escalateTo ? at(steps.escalateAfterSeconds) : undefined;
  if (!remindAt && !escalateAt) return undefined;
  return { ...(remindAt ? { remindAt } : {}), ...(escalateAt && steps.escalateTo ? { escalateAt, escalatesTo: steps.escalateTo } : {}) };
}

/** A step of a review that has not happened yet, with its time. */
export interface DueStep {
  step: SlaStep;
  at: Date;
}

/** The review's steps still to come (each at most once), in time order. */
export function pendingSteps(review: PendingReview): DueStep[] {
  const sla = review.sla;
  if (!sla) return [];
  const steps: DueStep[] = [];
  if (sla.remindAt && !sla.remindedAt && !sla.escalatedAt) steps.push({ step: 'remind', at: new Date(sla.remindAt) });
  if (sla.escalateAt && !sla.escalatedAt) steps.push({ step: 'escalate', at: new Date(sla.escalateAt) });
  return steps;
}

/** Whether `step` of this review is still to come and due by `now`. */
export function isDue(review: PendingReview, step: SlaStep, now: Date): boolean {
  return pendingSteps(review).some((due) => due.step === step && due.at.getTime() <= now.getTime());
}

/** Who a reminder is for: the person holding a live claim, else the review's team, else everyone who reviews. */
export function remindWho(review: PendingReview, claimedBy: string | null): string {
  if (claimedBy) return claimedBy;
  return review.team ? `team:${review.team}` : 'reviewers';
}

/** The review after its reminder went out. */
export function reminded(review: PendingReview, now: Date, who: string): PendingReview {
  return { ...review, sla: { ...review.sla, remindedAt: now.toISOString(), remindedWho: who } };
}

/**
 * The review after it escalated: a team target becomes the review's team (the team's queue shows it), named
 * reviewers are kept in the SLA record (`escalatesTo`); where it was before is kept too, so its earlier
 * assignee can still find and read it.
 */
export function escalated(review: PendingReview, now: Date, claimedBy: string | null): PendingReview {
  const target = review.sla?.escalatesTo;
  if (!target) throw new Error(`review ${review.reviewId} has no escalation target`);
  const moved: PendingReview = { ...review, sla: { ...review.sla, escalatedAt: now.toISOString(), escalatedFrom: { team: review.team ?? null, claimedBy } } };
  if ('team' in target) return { ...moved, team: target.team };
  return moved;
}

/** The target in words, for logs and messages: `team ops-leads`, `reviewer:ab12, reviewer:cd34`. */
export function describeTarget(target: EscalationTarget): string {
  return 'team' in target ? `team ${target.team}` : target.reviewers.join(', ');
}
