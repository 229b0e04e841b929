/**
 * A decision a person makes outside the API (a Slack button, an email link) is a decision like any other: it
 * goes through decideReview (src/review/decide-by-review-id.ts), so the pending review, the payload hash the
 * person was shown, blocking issues, claims, the compare-and-set and the audit row are the API's own. What
 * this adds is who the person is (a reviewer row, not an API key) and an answer a chat message or a web page
 * can show: decided, lost to someone else (and to whom), or refused (and why).
 */
import { ROLE_PERMISSIONS, reviewerActor } from '../auth/api-keys.ts';
import type { ReviewerRow } from '../auth/key-rows.ts';
import type { VettedError } from '../errors.ts';
import { isVettedError } from '../errors.ts';
import { decideReview } from '../review/decide-by-review-id.ts';
import { getReview } from '../review/review-queue.ts';
import type { System } from '../system.ts';

/** The two one-click decisions: approve (only without blocking issues) and reject (with a reason). */
export type ChannelAction = 'approve' | 'reject';

export interface ChannelDecision {
  reviewId: string;
  action: ChannelAction;
  /** The payload hash of the review the person was shown: a changed payload refuses the decision. */
  payloadHash: string;
  reason?: string;
}

export type ChannelOutcome =
  | { kind: 'decided'; action: ChannelAction; by: string; route: string }
  /** Someone else decided first: `winner` says who and what ("approved by Ada Lovelace"). */
  | { kind: 'lost'; winner: string }
  | { kind: 'refused'; code: string; why: string };

const LOST = new Set(['REVIEW_STALE', 'DECISION_CONFLICT', 'RUN_STATE_CONFLICT']);

/** Decides as `person`, with their role's permissions; never over blocking issues (one click is no override). */
export async function decideAsPerson(system: System, person: ReviewerRow, decision: ChannelDecision): Promise<ChannelOutcome> {
  if (!ROLE_PERMISSIONS[person.role].includes('reviews:decide')) {
    return { kind: 'refused', code: 'FORBIDDEN', why: `${person.name} is a ${person.role}, and a ${person.role} may not decide reviews` };
  }
  const body = { reviewId: decision.reviewId, action: decision.action, payloadHash: decision.payloadHash, ...(decision.reason ? { reason: decision.reason } : {}) };
  try {
    const { plan } = await decideReview(system, { reviewId: decision.reviewId, tenantId: person.tenantId, body, actor: { id: reviewerActor(person.id), canOverride: false, canChangeModel: false } });
    return { kind: 'decided', action: decision.action, by: person.name, route: plan.route };
  } catch (error) {
    if (!isVettedError(error)) throw error;
    return refusalOf(system, person.tenantId, decision.reviewId, error);
  }
}

async function refusalOf(system: System, tenantId: string, reviewId: string, error: VettedError): Promise<ChannelOutcome> {
  if (LOST.has(error.code)) {
    const winner = await decidedBy(system, tenantId, reviewId);
    if (winner) return { kind: 'lost', winner };
  }
  return { kind: 'refused', code: error.code, why: plainReason(error) };
}

/** What a person outside the console needs to hear, for the refusals they can meet; others say what they say. */
const PLAIN: Partial<Record<VettedError['code'], string>> = {
  PAYLOAD_HASH_MISMATCH: 'the payload changed since this was sent; open the review in the console to see the new one',
  BLOCKING_ISSUES: 'the payload has blocking issues; fix or override them in the console',
};

function plainReason(error: VettedError): string {
  return PLAIN[error.code] ?? error.message;
}

/** "approved by Ada Lovelace", or how the review ended; undefined while it is pending or unknown. */
export async function decidedBy(system: System, tenantId: string, reviewId: string): Promise<string | undefined> {
  const found = await getReview(system, tenantId, reviewId).catch((error: unknown) => {
    if (isVettedError(error) && error.code === 'REVIEW_NOT_FOUND') return undefined;
    throw error;
  });
  const closing = found?.decisions.at(-1)?.decision;
  if (!found || found.state === 'pending' || !closing) return undefined;
  return `${pastTense(closing.action)} by ${await nameOf(system, closing.actor)}`;
}

/** A person's name for an actor id (`reviewer:<id>`); a key or the system stays as recorded. */
export async function nameOf(system: System, actor: string): Promise<string> {
  if (!actor.startsWith('reviewer:')) return actor;
  const person = await system.reviewers.get(actor.slice('reviewer:'.length));
  return person?.name ?? actor;
}

const PAST: Record<string, string> = { approve: 'approved', reject: 'rejected', edit: 'edited and approved', expire: 'expired', cancel: 'cancelled', retry: 'sent back to retry' };

export function pastTense(action: string): string {
  return PAST[action] ?? `decided (${action})`;
}
