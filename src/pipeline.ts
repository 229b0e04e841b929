/**
 * THE stage order. Read this first: a run moves through these stages in this order, one BullMQ queue per
 * stage. Each stage's logic is a pure function in src/stages; workers/stage-handlers.ts wires each one to
 * its inputs and outputs, and workers/stage-processor.ts persists the outcome and enqueues the next stage.
 *
 *   extract ─▶ assemble ─▶ build ─▶ validate ─┬─▶ execute ─▶ completed
 *                                             └─▶ awaiting_human ─(decision)─▶ validate | execute | cancelled
 */
import type { RunStatus, StageName } from './generated/contracts.ts';

export type { StageName };

export interface StageDefinition {
  name: StageName;
  /** What the stage does, for logs, `--help` and the demo's progress display. */
  summary: string;
  /** The run's status while it waits for or runs this stage. */
  status: RunStatus;
  /** The stage that follows when this one advances; null for the last. */
  next: StageName | null;
}

export const STAGES: readonly StageDefinition[] = [
  { name: 'extract', summary: 'SchemaExtractor: model → strict ModelSchema, examples quarantined', status: 'extracting', next: 'assemble' },
  { name: 'assemble', summary: 'ContextAssembler: request → RequestBundle', status: 'assembling', next: 'build' },
  { name: 'build', summary: 'PayloadBuilder: bundle + schema → CandidatePayload with provenance', status: 'building', next: 'validate' },
  { name: 'validate', summary: 'Validator + gate: AJV, provenance, leak firewall → execute or park', status: 'validating', next: 'execute' },
  { name: 'execute', summary: 'Executor: run the payload on the provider, once (idempotency ledger)', status: 'executing', next: null },
];

export const STAGE_NAMES: readonly StageName[] = STAGES.map((stage) => stage.name);

const BY_NAME = new Map(STAGES.map((stage) => [stage.name, stage]));

export function stageDefinition(name: StageName): StageDefinition {
  const stage = BY_NAME.get(name);
  if (!stage) throw new Error(`Unknown stage ${name}`);
  return stage;
}

/** The stage a run in this status is at, or undefined when no stage job belongs to the status. */
export function stageForStatus(status: RunStatus): StageName | undefined {
  if (status === 'queued') return 'extract';
  return STAGES.find((stage) => stage.status === status)?.name;
}

export function isStageName(value: string): value is StageName {
  return BY_NAME.has(value as StageName);
}
