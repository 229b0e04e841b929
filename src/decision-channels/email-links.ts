/**
 * Who gets decision links in the waiting-review email, and which (pure). Links are personal: each is signed
 * for one reviewer and decides as them, so they go only to that reviewer's own address, and only to reviewers
 * whose role may decide (of the review's team, when the policy routes it to one; the named people, when it
 * escalated to named people). The tenant's notification
 * address gets the email as before, without links, unless it is one of those reviewers' own address.
 */
import { ROLE_PERMISSIONS } from '../auth/api-keys.ts';
import type { ReviewerRow } from '../auth/key-rows.ts';
import type { ChannelTarget } from '../notifications/channels.ts';
import type { DecisionBinding } from './slack-blocks.ts';
import { decisionLinkUrl, linkExpiry, signLink } from './decision-links.ts';

export interface LinkSettings {
  /** The link secret; undefined means no links. */
  secret: string | undefined;
  ttlSeconds: number;
  consoleUrl: string;
}

export interface LinkedReview {
  binding: DecisionBinding;
  runId: string;
  /** The review's own expiry (ISO 8601): no link outlives it. */
  expiresAt: string;
  team?: string;
  /** Only these reviewer ids (a review escalated to named people). */
  only?: readonly string[];
}

/** The reviewers a waiting review's links go to. */
export function linkRecipients(reviewers: readonly ReviewerRow[], review: Pick<LinkedReview, 'team' | 'only'>): ReviewerRow[] {
  const named = review.only ? new Set(review.only.map((id) => id.replace(/^reviewer:/, ''))) : undefined;
  return reviewers.filter((person) => person.email && ROLE_PERMISSIONS[person.role].includes('reviews:decide')
    && (named ? named.has(person.id) : !review.team || person.team === review.team));
}

/**
 * The email targets: the tenant's address (`tenantEmail`, the `email` delivery), with the links of the reviewer
 * it belongs to if any, then each other recipient's own email (`email:<reviewer id>`).
 */
export function emailTargets(tenantEmail: string, reviewers: readonly ReviewerRow[], review: LinkedReview | undefined, settings: LinkSettings, nowMs: number): ChannelTarget[] {
  const tenant: ChannelTarget = { channel: 'email', target: tenantEmail };
  if (!review || !settings.secret) return [tenant];
  const secret = settings.secret;
  const expiresAt = linkExpiry(nowMs, settings.ttlSeconds, review.expiresAt);
  const linksFor = (person: ReviewerRow): NonNullable<ChannelTarget['links']> => {
    const url = (action: 'approve' | 'reject') => decisionLinkUrl(settings.consoleUrl, signLink(secret, {
      reviewId: review.binding.reviewId, runId: review.runId, payloadHash: review.binding.payloadHash, reviewerId: person.id, action, expiresAt,
    }));
    return { person: person.name, ...(review.binding.canApprove ? { approve: url('approve') } : {}), reject: url('reject'), until: new Date(expiresAt * 1000).toISOString() };
  };
  const recipients = linkRecipients(reviewers, review);
  const same = (person: ReviewerRow) => person.email!.toLowerCase() === tenantEmail.toLowerCase();
  const owner = recipients.find(same);
  return [
    owner ? { ...tenant, links: linksFor(owner) } : tenant,
    ...recipients.filter((person) => !same(person)).map((person): ChannelTarget => ({ channel: 'email', target: person.email!, delivery: `email:${person.id}`, links: linksFor(person) })),
  ];
}
