/**
 * The next deadline of a pending review as the queue shows it: its escalation (policy.sla) while one is due,
 * else its expiry; with who it escalates to, or where it already went. Pure, so the words are tested without a
 * browser.
 */
import type { ReviewSummary } from '../api/types.ts';
import { targetText } from '../review/sla-facts.ts';

export interface Deadline {
  label: 'Escalates' | 'Expires';
  at: string;
  /** Who it escalates to (before), or where it went (after). */
  note?: string;
}

export function deadlineOf(review: Pick<ReviewSummary, 'expiresAt' | 'sla'>, nameOf: (id: string) => string = (id) => id): Deadline {
  const sla = review.sla;
  if (sla?.escalatesTo && sla.escalateAt && !sla.escalatedAt) return { label: 'Escalates', at: sla.escalateAt, note: `to ${targetText(sla.escalatesTo, nameOf)}` };
  if (sla?.escalatesTo && sla.escalatedAt) return { label: 'Expires', at: review.expiresAt, note: `escalated to ${targetText(sla.escalatesTo, nameOf)}` };
  return { label: 'Expires', at: review.expiresAt };
}

/** "in 45 min", or "now" once the time has come (a timer fires shortly after). */
export function untilText(at: string, now: number): string {
  const ms = Date.parse(at) - now;
  if (ms <= 0) return 'now';
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `in ${Math.floor(hours / 24)} d`;
}
