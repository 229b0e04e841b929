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

/** @param nameOf a person's name from their reviewer id (the id itself when not known). */
export function targetText(target: EscalationTarget, nameOf: (id: string) => string = (id) => id): string {
  return 'team' in target ? `team ${target.team}` : target.reviewers.map(nameOf).join(', ');
}

export function slaFacts(sla: ReviewSla | null | undefined, nameOf?: (id: string) => string): SlaFact[] {
  if (!sla) return [];
  const facts: SlaFact[] = [];
  if (sla.remindedAt) facts.push({ label: 'Reminded', text: sla.remindedWho ?? 'the reviewers', at: sla.remindedAt });
  else if (sla.remindAt && !sla.escalatedAt) facts.push({ label: 'Reminder', text: 'if still undecided', at: sla.remindAt });
  if (sla.escalatedAt && sla.escalatesTo) {
    const from = sla.escalatedFrom;
    const before = [from?.team ? `team ${from.team}` : undefined, from?.claimedBy ? `held by ${from.claimedBy}` : undefined].filter(Boolean).join(', ');
    facts.push({ label: 'Escalated', text: `to ${targetText(sla.escalatesTo, nameOf)}${before ? ` (from ${before})` : ''}`, at: sla.escalatedAt });
  } else if (sla.escalateAt && sla.escalatesTo) {
    facts.push({ label: 'Escalates', text: `to ${targetText(sla.escalatesTo, nameOf)}`, at: sla.escalateAt });
  }
  return facts;
}
