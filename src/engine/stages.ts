/**
 * THE stage table. Read this first: a run moves through these stages in this order, one BullMQ queue per
 * stage. Everything that runs the pipeline reads the order from here: the BullMQ processor (processor.ts)
 * and the in-process runner (in-process-runner.ts) that `vetted dry-run`, shadow replay and the bench use.
 *
 *   extract ─▶ assemble ─▶ build ─▶ validate ─┬─▶ execute ─▶ completed
 *                  │                          └─▶ awaiting_human ─(decision)─▶ build | validate | execute | completed | cancelled
 *                  └─▶ awaiting_human (information review)
 *
 * For each stage: its name; the status a run is in while it waits for or runs the stage; how its job opens the
 * visit; what it loads and its step (stage-steps.ts); its queue (name, attempts, backoff; concurrency is
 * VETTED_CONCURRENCY_<STAGE>, else VETTED_CONCURRENCY); and what happens when a transient error outlives the
 * attempts: the run fails, or a person is asked (a builder or provider that keeps failing is a question for a
 * person, not a reason to drop the run); and whether it may run locally, in the job of the stage before it
 * (local-stages.ts). Every state change a stage causes is a move (moves.ts).
 */
import { VettedError } from '../errors.ts';
import type { RunStatus, StageName } from '../generated/contracts.ts';
import { assembleSteps, buildSteps, executeSteps, extractSteps, validateSteps, type StageSteps } from './stage-steps.ts';

export type { StageName };

export interface StageQueue {
  /** The BullMQ queue's name (under the installation's prefix). */
  name: string;
  /** Tries per visit: pure stages fail fast, the ones that call out (LLM, provider) get more room. */
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  /** Whether VETTED_REPLICATE_RATE_LIMIT caps how many jobs start per second. */
  rateLimited: boolean;
}

export interface StageDefinition {
  name: StageName;
  /** What the stage does, for logs, `--help` and the demo's progress display. */
  summary: string;
  /** The run's status while it waits for or runs this stage. */
  status: RunStatus;
  /** The stage an `advance` outcome leads to; null for the last. */
  next: StageName | null;
  /**
   * How a job opens its visit. `start`: a move takes the run out of `queued` (the first stage). `claim`: the
   * move that enqueued the job already put the run in this status, so opening it is a read.
   */
  opens: 'start' | 'claim';
  queue: StageQueue;
  /** When a transient error outlives `attempts`: end the run failed, or park it for a person (error_recovery). */
  onExhausted: 'fail' | 'ask_person';
  /** What the stage loads, and its step: input → outcome (never writes the run). */
  steps: StageSteps<unknown>;
  /**
   * Whether the stage may run *locally*: in the job whose visit of the stage before it ended in `advance`,
   * without a queue hop (local-stages.ts). `pure`: deterministic CPU work, so a replay after a crash is
   * harmless. `deterministic_builder`: only when the run's builder is deterministic and offline (the heuristic
   * one; an LLM builder waits on the outside world). `never`: it calls out and keeps its own queue.
   */
  local: 'pure' | 'deterministic_builder' | 'never';
}

const quick = { type: 'exponential', delay: 500 } as const;
const patient = { type: 'exponential', delay: 1000 } as const;

export const STAGES: readonly StageDefinition[] = [
  {
    name: 'extract', summary: 'SchemaExtractor: model → strict ModelSchema, examples quarantined', status: 'extracting', next: 'assemble',
    opens: 'start', queue: { name: 'vetted-extract', attempts: 5, backoff: quick, rateLimited: false }, onExhausted: 'fail', steps: extractSteps, local: 'pure',
  },
  {
    name: 'assemble', summary: 'ContextAssembler: request → RequestBundle', status: 'assembling', next: 'build',
    opens: 'claim', queue: { name: 'vetted-assemble', attempts: 5, backoff: quick, rateLimited: false }, onExhausted: 'fail', steps: assembleSteps, local: 'pure',
  },
  {
    name: 'build', summary: 'PayloadBuilder: bundle + schema → CandidatePayload with provenance', status: 'building', next: 'validate',
    opens: 'claim', queue: { name: 'vetted-build', attempts: 6, backoff: patient, rateLimited: false }, onExhausted: 'ask_person', steps: buildSteps, local: 'deterministic_builder',
  },
  {
    name: 'validate', summary: 'Validator + gate: AJV, provenance, leak firewall → execute or park', status: 'validating', next: 'execute',
    opens: 'claim', queue: { name: 'vetted-validate', attempts: 5, backoff: quick, rateLimited: false }, onExhausted: 'fail', steps: validateSteps, local: 'pure',
  },
  {
    name: 'execute', summary: 'Executor: run the payload on the provider, once (idempotency ledger)', status: 'executing', next: null,
    opens: 'claim', queue: { name: 'vetted-execute', attempts: 8, backoff: patient, rateLimited: true }, onExhausted: 'ask_person', steps: executeSteps, local: 'never',
  },
];

export const STAGE_NAMES: readonly StageName[] = STAGES.map((stage) => stage.name);

const BY_NAME = new Map(STAGES.map((stage) => [stage.name, stage]));

export function isStageName(value: string): value is StageName {
  return BY_NAME.has(value as StageName);
}

export function stageNamed(name: StageName): StageDefinition {
  const stage = BY_NAME.get(name);
  if (!stage) throw new VettedError('INTERNAL', `Unknown stage ${name}`);
  return stage;
}
