/**
 * What the bulk bar says of each item POST /api/reviews/decisions answered: decided, lost to someone who came
 * first (and who), or refused (and why). Pure, so the words are tested without a browser.
 */
import type { BulkDecisionResult } from '../api/types.ts';

export type ResultTone = 'decided' | 'conflict' | 'refused';

export interface ResultLine {
  reviewId: string;
  tone: ResultTone;
  text: string;
}

/** @param nameOf a person's name from an actor (`reviewer:rv_…`) or a reviewer id; the actor as it is otherwise. */
export function resultLine(result: BulkDecisionResult, action: 'approve' | 'reject', nameOf: (actor: string) => string): ResultLine {
  const { reviewId } = result;
  if (result.outcome === 'decided') {
    const text = action === 'approve' ? (result.route === 'await_quorum' ? 'Approval counted; the quorum waits for more' : 'Approved') : 'Rejected';
    return { reviewId, tone: 'decided', text };
  }
  if (result.outcome === 'conflict') return { reviewId, tone: 'conflict', text: conflictText(result, nameOf) };
  return { reviewId, tone: 'refused', text: `Refused: ${result.why ?? 'the API gave no reason'}${result.code ? ` (${result.code})` : ''}` };
}

function conflictText(result: BulkDecisionResult, nameOf: (actor: string) => string): string {
  const winner = result.winner;
  if (!winner) return `Not decided: ${result.why ?? 'it changed meanwhile'}`;
  if (winner.action === 'claim') return `Not decided: ${nameOf(winner.actor)} is working on it`;
  return `Already decided by ${nameOf(winner.actor)} (${pastTense(winner.action)})`;
}

function pastTense(action: string): string {
  const words: Record<string, string> = { approve: 'approved', reject: 'rejected', edit: 'edited', retry: 'sent back to retry', change_model: 'model changed', edit_text: 'text edited' };
  return words[action] ?? action;
}

/** Counts for the summary line: "2 approved, 1 not decided". */
export function resultSummary(lines: readonly ResultLine[], action: 'approve' | 'reject'): string {
  const count = (tone: ResultTone) => lines.filter((l) => l.tone === tone).length;
  const parts = [
    count('decided') ? `${count('decided')} ${action === 'approve' ? 'approved' : 'rejected'}` : '',
    count('conflict') ? `${count('conflict')} decided by someone else first` : '',
    count('refused') ? `${count('refused')} refused` : '',
  ].filter(Boolean);
  return parts.join(', ') || 'Nothing was decided';
}
