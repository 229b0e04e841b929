/**
 * A decision from an email link. Opening the link (GET) only reads: it checks the token and says what a
 * decision would be about (openLink), because mail scanners and link previewers open links nobody clicked.
 * The button on that page (POST) decides (useLink): it checks the token again, records the link's one use
 * first (a second use is told who used it, and for what), then decides as the person the link was sent to,
 * through the same service as the API's (person-decision.ts): the same permission, the same payload-hash
 * binding, the same compare-and-set, the same audit row.
 */
import { ROLE_PERMISSIONS, reviewerActor } from '../auth/api-keys.ts';
import type { ReviewerRow } from '../auth/key-rows.ts';
import { maskAnswer } from '../catalog/secret-fields.ts';
import { isVettedError } from '../errors.ts';
import type { ValidationIssue } from '../generated/contracts.ts';
import { getReview, type ReviewRecord } from '../review/review-queue.ts';
import type { System } from '../system.ts';
import { checkLink, tokenHashOf, type LinkClaims } from './decision-links.ts';
import { decideAsPerson, decidedBy, nameOf, type ChannelOutcome } from './person-decision.ts';

/** What a reject needs: a reason the audit trail keeps. */
export const MAX_REASON_LENGTH = 2000;

/** What the confirm page shows: the review as it is, the payload (secrets masked) and the person deciding. */
export interface LinkConfirm {
  kind: 'confirm';
  token: string;
  claims: LinkClaims;
  person: Pick<ReviewerRow, 'name' | 'role'>;
  model: string | null;
  checkpoint: string;
  reason: string;
  summary: string | null;
  question: string;
  issues: ValidationIssue[];
  payload: unknown;
  expiresAt: string;
  /** Approve is refused over blocking issues (one click is no override). */
  canApprove: boolean;
  /** Another person holds a claim on the review: the decision would be refused until it ends. */
  claimedBy: string | null;
  /** Set when the page is shown again after a POST that could not be taken (a reject without a reason). */
  problem?: string;
}

/** Why a link does nothing; each is a page that says what to do next. */
export type LinkRefusal =
  | { kind: 'invalid'; why: string }
  | { kind: 'expired'; at: Date }
  | { kind: 'unknown_person' }
  | { kind: 'used'; usedAt: Date; action: string; by: string; now?: string }
  | { kind: 'ended'; how: string }
  | { kind: 'changed' }
  | { kind: 'not_found' }
  | { kind: 'forbidden'; why: string };

export type LinkView = LinkConfirm | LinkRefusal;
export type LinkResult = LinkRefusal | LinkConfirm | ChannelOutcome;

/** What the page shows, and which review it is about when the link could be trusted that far. */
export interface LinkAnswer<T extends LinkResult = LinkResult> {
  result: T;
  reviewId: string | null;
}

/** Where the page sends a person for anything else: the review's card in the console. */
export function consoleLinkOf(system: Pick<System, 'config'>, reviewId: string): string {
  return `${system.config.notifications.consoleUrl}/reviews/${reviewId}`;
}

/** GET: what the link would decide, or why it will not; never writes anything. */
export async function openLink(system: System, token: string): Promise<LinkAnswer<LinkView>> {
  const checked = await checkedLink(system, token);
  if (!('claims' in checked)) return checked;
  const { claims, person } = checked;
  const used = await system.decisionLinks.find(tokenHashOf(token));
  const result = used ? await usedBy(system, person, used) : await confirmOf(system, token, claims, person);
  return { result, reviewId: claims.reviewId };
}

/** POST: decides once, as the link's person; a reject needs `reason`. */
export async function useLink(system: System, token: string, input: { reason?: string }): Promise<LinkAnswer> {
  const checked = await checkedLink(system, token);
  if (!('claims' in checked)) return checked;
  const { claims, person } = checked;
  const answer = (result: LinkResult): LinkAnswer => ({ result, reviewId: claims.reviewId });
  const reason = (input.reason ?? '').trim();
  if (claims.action === 'reject' && (reason.length === 0 || reason.length > MAX_REASON_LENGTH)) {
    const { result } = await openLink(system, token);
    return answer(result.kind === 'confirm' ? { ...result, problem: `Say why you reject it, in 1 to ${MAX_REASON_LENGTH} characters: the audit trail keeps the reason.` } : result);
  }
  const tokenHash = tokenHashOf(token);
  // The use is recorded before anything is decided: of two posts of one link, one gets here.
  const first = await system.decisionLinks.use({ tokenHash, tenantId: person.tenantId, reviewId: claims.reviewId, reviewerId: person.id, action: claims.action });
  if (!first) {
    const used = await system.decisionLinks.find(tokenHash);
    return answer(used ? await usedBy(system, person, used) : { kind: 'invalid', why: 'the link was used and its record is gone' });
  }
  let outcome: ChannelOutcome;
  try {
    outcome = await decideAsPerson(system, person, { reviewId: claims.reviewId, action: claims.action, payloadHash: claims.payloadHash, ...(claims.action === 'reject' ? { reason } : {}) });
  } catch (error) {
    // Not the link's fault (the database went away): the link works again once the server does.
    await system.decisionLinks.release(tokenHash).catch(() => undefined);
    throw error;
  }
  // A claim ends; the link may decide once it has.
  if (outcome.kind === 'refused' && outcome.code === 'REVIEW_CLAIMED') await system.decisionLinks.release(tokenHash);
  return answer(outcome);
}

/** The token's signature and expiry, and the person it was sent to. */
async function checkedLink(system: System, token: string): Promise<LinkAnswer<LinkRefusal> | { claims: LinkClaims; person: ReviewerRow }> {
  const secret = system.config.decisionLinks.secret;
  if (!secret) return { result: { kind: 'invalid', why: 'email decision links are off on this server (VETTED_EMAIL_LINK_SECRET is not set)' }, reviewId: null };
  const check = checkLink(secret, token, system.clock.now().getTime());
  if (check.kind === 'invalid') return { result: check, reviewId: null };
  if (check.kind === 'expired') return { result: { kind: 'expired', at: new Date(check.claims.expiresAt * 1000) }, reviewId: check.claims.reviewId };
  const person = await system.reviewers.get(check.claims.reviewerId);
  // A removed person's links decide nothing any more.
  if (!person || person.removedAt) return { result: { kind: 'unknown_person' }, reviewId: check.claims.reviewId };
  return { claims: check.claims, person };
}

async function usedBy(system: System, person: ReviewerRow, used: { usedAt: Date; action: string; reviewId: string }): Promise<LinkRefusal> {
  const now = await decidedBy(system, person.tenantId, used.reviewId);
  return { kind: 'used', usedAt: used.usedAt, action: used.action, by: person.name, ...(now ? { now } : {}) };
}

async function confirmOf(system: System, token: string, claims: LinkClaims, person: ReviewerRow): Promise<LinkView> {
  let found: ReviewRecord;
  try {
    found = await getReview(system, person.tenantId, claims.reviewId);
  } catch (error) {
    if (isVettedError(error) && error.code === 'REVIEW_NOT_FOUND') return { kind: 'not_found' };
    throw error;
  }
  if (found.run.id !== claims.runId) return { kind: 'invalid', why: 'the link names a review of another run' };
  if (found.state !== 'pending') {
    return { kind: 'ended', how: (await decidedBy(system, person.tenantId, claims.reviewId)) ?? found.state };
  }
  if (found.review.payloadHash !== claims.payloadHash) return { kind: 'changed' };
  if (!ROLE_PERMISSIONS[person.role].includes('reviews:decide')) {
    return { kind: 'forbidden', why: `${person.name} is a ${person.role}, and a ${person.role} may not decide reviews` };
  }
  const { review, run } = found;
  const sources = { models: system.models, schemaKeysOfRuns: system.runQueries.schemaKeysOfRuns };
  // The page is a view like any other: a model's secret inputs are masked, as in every API answer.
  const payload = await maskAnswer(review.candidate?.payload ?? null, sources, person.tenantId, [run]);
  return {
    kind: 'confirm',
    token,
    claims,
    person: { name: person.name, role: person.role },
    model: run.model,
    checkpoint: review.checkpoint,
    reason: review.reason,
    summary: review.summary ?? null,
    question: review.question,
    issues: review.issues,
    payload,
    expiresAt: review.expiresAt,
    canApprove: !review.issues.some((issue) => issue.severity === 'blocking'),
    claimedBy: found.claim && found.claim.claimedBy !== reviewerActor(person.id) ? await nameOf(system, found.claim.claimedBy) : null,
  };
}
