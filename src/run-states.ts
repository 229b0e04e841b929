/**
 * Run statuses and the transitions allowed between them, as a table. Every status change in Vetted goes
 * through {@link assertTransition}, so an impossible move is a bug we see, not a run in a strange state.
 */
import { VettedError } from './errors.ts';
import type { RunStatus } from './generated/contracts.ts';

export type { RunStatus };

export const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled', 'expired'] as const satisfies readonly RunStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** Statuses in which a stage job is (or should be) in a queue. */
export const IN_FLIGHT_STATUSES = [
  'queued', 'extracting', 'assembling', 'building', 'validating', 'executing',
] as const satisfies readonly RunStatus[];

const ALWAYS: RunStatus[] = ['failed', 'cancelled', 'paused'];

export const TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['extracting', ...ALWAYS],
  extracting: ['assembling', ...ALWAYS],
  assembling: ['building', 'awaiting_human', ...ALWAYS],
  building: ['validating', 'awaiting_human', ...ALWAYS],
  validating: ['executing', 'awaiting_human', ...ALWAYS],
  // A decision sends the run back to extracting (another model), building (retry), validating (edit), executing (approve) or completes
  // a response review; expiry and cancellation end it.
  awaiting_human: ['extracting', 'building', 'validating', 'executing', 'completed', 'awaiting_human', 'expired', ...ALWAYS],
  executing: ['completed', 'awaiting_human', 'failed', 'cancelled', 'paused'],
  paused: ['queued', 'extracting', 'assembling', 'building', 'validating', 'executing', 'awaiting_human', 'cancelled', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
  expired: [],
};

export function isTerminal(status: RunStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly RunStatus[]).includes(status);
}

export function isInFlight(status: RunStatus): boolean {
  return (IN_FLIGHT_STATUSES as readonly RunStatus[]).includes(status);
}

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: RunStatus, to: RunStatus): void {
  if (!canTransition(from, to)) {
    throw new VettedError('RUN_STATE_CONFLICT', `A run cannot go from ${from} to ${to}`, {
      details: { from, to, allowed: TRANSITIONS[from] },
    });
  }
}
