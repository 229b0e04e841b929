/**
 * Where a decision sends a parked run: a table, not a guess. Missing cells are refused (a response review
 * cannot be edited; a payload review cannot be retried).
 */
import type { Decision, PendingReview, ReviewOption } from '../generated/contracts.ts';

export type DecisionAction = Decision['action'];
export type Checkpoint = PendingReview['checkpoint'];

/**
 * execute: run the payload; validate: validate the edited payload again; build: build again (error
 * recovery, or after an information review); extract: start again from the model's schema, for another
 * model (change_model); complete: accept the response; cancel: end the run.
 */
export type ResumeRoute = 'execute' | 'validate' | 'build' | 'extract' | 'complete' | 'cancel';

export const RESUME_ROUTES: Readonly<Record<Checkpoint, Partial<Record<DecisionAction, ResumeRoute>>>> = {
  information_review: { approve: 'build', edit: 'build', change_model: 'extract', reject: 'cancel' },
  payload_review: { approve: 'execute', edit: 'validate', change_model: 'extract', reject: 'cancel' },
  error_recovery: { approve: 'execute', edit: 'validate', retry: 'build', reject: 'cancel' },
  response_review: { approve: 'complete', edit_text: 'complete', retry: 'execute', reject: 'cancel' },
};

const OPTION_LABELS: Readonly<Record<DecisionAction, string>> = {
  approve: 'Approve',
  edit: 'Edit fields, then validate again',
  retry: 'Try again',
  change_model: 'Send it to another model',
  edit_text: 'Edit the text, then accept it',
  reject: 'Reject and cancel the run',
};

/**
 * Reviews whose reason changes where an action leads. An execution whose outcome nobody knows is not built
 * again: a person who checked the provider runs it again (as a new ledger step) with approve or retry. Nor is one
 * the provider kept refusing as too many requests: nothing ran, and the same payload is simply tried again.
 */
export const REASON_ROUTES: Readonly<Partial<Record<PendingReview['reason'], Partial<Record<DecisionAction, ResumeRoute>>>>> = {
  execution_uncertain: { approve: 'execute', retry: 'execute' },
  provider_throttled: { approve: 'execute', retry: 'execute' },
};

export function resumeRoute(checkpoint: Checkpoint, action: DecisionAction, reason?: PendingReview['reason']): ResumeRoute | undefined {
  return (reason && REASON_ROUTES[reason]?.[action]) ?? RESUME_ROUTES[checkpoint][action];
}

/**
 * The actions a reviewer is offered at a checkpoint, in table order. Without a candidate payload (the builder
 * failed) there is nothing to approve; only a text output can be edited.
 */
export function reviewActions(checkpoint: Checkpoint, hasCandidate = true, textOutput = false): ReviewOption[] {
  return (Object.keys(RESUME_ROUTES[checkpoint]) as DecisionAction[])
    .filter((id) => hasCandidate || id !== 'approve' || checkpoint === 'information_review')
    .filter((id) => textOutput || id !== 'edit_text')
    .map((id) => ({ id, label: id === 'edit' && !hasCandidate ? 'Set fields, then build again' : OPTION_LABELS[id] }));
}
