/**
 * A review's SLA (policy.sla) as the card's facts: when the reminder and the escalation are due or came, and
 * who the review escalates to (or came from). Pure, so the words are tested without a browser.
 */
import type { EscalationTarget, ReviewSla } from '../../../src/generated/contracts.ts';

export interface SlaFact {
  label: string;
  text: string;
  /** The time the fact is about (shown in the reader's time zone). */
  at?: string;
}

export function targetText(target: EscalationTarget): string {
  return 'team' in target ? `team ${target.team}` : target.reviewers.join(', ');
}

export function slaFacts(sla: ReviewSla | null | undefined): SlaFact[] {
  if (!sla) return [];
  const facts: SlaFact[] = [];
  if (sla.remindedAt) facts.push({ label: 'Reminded', text: sla.remindedWho ?? 'the reviewers', at: sla.remindedAt });
  else if (sla.remindAt && !sla.escalatedAt) facts.push({ label: 'Reminder', text: 'if still undecided', at: sla.remindAt });
  if (sla.escalatedAt && sla.escalatesTo) {
    const from = sla.escalatedFrom;
    const before = [from?.team ? `team ${from.team}` : undefined, from?.claimedBy ? `held by ${from.claimedBy}` : undefined].filter(Boolean).join(', ');
    facts.push({ label: 'Escalated', text: `to ${targetText(sla.escalatesTo)}${before ? ` (from ${before})` : ''}`, at: sla.escalatedAt });
  } else if (sla.escalateAt && sla.escalatesTo) {
    facts.push({ label: 'Escalates', text: `to ${targetText(sla.escalatesTo)}`, at: sla.escalateAt });
  }
  return facts;
}
