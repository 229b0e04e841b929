/**
 * Where a task goes when it arrives: a policy on confidence × impact. The task type lists the cells
 * approved without a person; by default only high confidence with normal impact. Everything else waits: medium
 * or low confidence, and any high-impact task, whatever the confidence. Pure.
 */
import type { Confidence, Impact, RoutingCell, TaskRouting } from '../generated/contracts.ts';

/** By default high confidence with normal impact is approved at once (the chatbot answers); the rest is escalated. */
export const DEFAULT_AUTO_APPROVE: readonly RoutingCell[] = [{ confidence: 'high', impact: 'normal' }];

export function routeTask(autoApprove: readonly RoutingCell[], confidence: Confidence, impact: Impact): TaskRouting {
  return autoApprove.some((cell) => cell.confidence === confidence && cell.impact === impact) ? 'auto_approved' : 'human_review';
}

/** Who recorded an automatic approval, in the audit trail and on the task. */
export const AUTO_APPROVER = { actor: 'policy:auto_approve', operator: { name: 'Vetted routing policy', role: 'policy' } } as const;
