/**
 * LangGraph JS, the peer of phase `peers`: Vetted's stages as a LangGraph graph checkpointed in PostgreSQL
 * (PostgresSaver), run in a worker process of its own (bench/worker-host.ts loads this file by path; its
 * packages live in bench/peers/node_modules, never in Vetted's).
 *
 *   START → extract → assemble → build → validate → execute → END
 *
 * Each node calls the same pure stage code Vetted's stage workers call (src/stages, src/builders, the model
 * catalog, the dry provider) on an in-process catalog holding the two bench models, so the two systems do
 * the same work per request and differ in how they move it: LangGraph writes a checkpoint per step to
 * PostgreSQL from one process; Vetted hands each stage to a BullMQ queue and commits a move per stage.
 * Durability is LangGraph's default (`async`: a step's checkpoint is written while the next step runs), which
 * is less than Vetted's (a stage's move commits before the next job exists); that favours LangGraph.
 *
 * A review request (policy require_human) stops at validate with interrupt({ reviewId, payloadHash }); the
 * driver reads it back (getState, as a reviewer's client reads the run) and resumes with
 * Command({ resume: { reviewId, payloadHash } }). LangGraph runs the interrupted node again on resume, so
 * validate validates twice in a review round trip: that is how interrupt() works, not something added here.
 */
import { Annotation, Command, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { createDryProvider } from '../../src/adapters/dry-provider.ts';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { registerModel, resolveRunModel } from '../../src/catalog/model-catalog.ts';
import { SHARED_TENANT } from '../../src/catalog/catalog-store.ts';
import { loadConfig } from '../../src/config.ts';
import { createInProcessEngine } from '../../src/engine/in-process.ts';
import type { CandidatePayload, GenerationRequest, ModelSchema, PolicySpec, RequestBundle, ValidationIssue } from '../../src/generated/contracts.ts';
import { normalizePolicy } from '../../src/intake/submit-run.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { assembleContext } from '../../src/stages/context-assembler.ts';
import { decideGate, informationReview, payloadHash } from '../../src/stages/gate.ts';
import { publishedSchemaIssues, validatePayload } from '../../src/stages/validator/index.ts';
import { countQueriesOf } from '../call-counter.ts';
import { BENCH_MODELS, benchRequest, readModelSource } from '../workload.ts';

/** Where the checkpointer's tables go in the bench database. */
const SCHEMA = 'langgraph';

interface Review {
  reviewId: string;
  payloadHash: string;
}

const State = Annotation.Root({
  /** The thread id: the run's id. */
  runId: Annotation<string>,
  tenantId: Annotation<string>,
  request: Annotation<GenerationRequest>,
  policy: Annotation<PolicySpec>,
  status: Annotation<string>,
  schemaKey: Annotation<string | null>,
  bundle: Annotation<RequestBundle | null>,
  candidate: Annotation<CandidatePayload | null>,
  issues: Annotation<ValidationIssue[]>,
  execution: Annotation<unknown>,
});
type RunState = typeof State.State;

export interface PeerOptions {
  databaseUrl: string;
  poolSize: number;
}

/** What bench/worker-host.ts calls: builds the graph and answers the driver's calls. */
export async function start(options: Record<string, unknown>): Promise<{ call(method: string, args: unknown): Promise<unknown>; close(): Promise<void> }> {
  const { databaseUrl, poolSize } = options as unknown as PeerOptions;
  countQueriesOf(pg.Client);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  pool.on('error', () => undefined);
  const checkpointer = new PostgresSaver(pool, undefined, { schema: SCHEMA });
  await pool.query(`create schema if not exists ${SCHEMA}`);
  await checkpointer.setup();
  const graph = await buildGraph(checkpointer);
  const done = new Map<string, number>();
  const running = new Set<string>();

  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
  const finish = (tag: string, state: RunState) => {
    if (state.status === 'completed') done.set(tag, (done.get(tag) ?? 0) + 1);
    return state.status;
  };
  const methods: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
    /** The pipeline (auto policy), or a review request up to its interrupt (require_human). */
    async run({ threadId, index, tag, review }) {
      const request = benchRequest(Number(index), review ? 'require_human' : undefined);
      const checked = assertContract<GenerationRequest>('generation-request', request, 'request');
      running.add(String(threadId));
      try {
        const input = { runId: String(threadId), tenantId: `bench-peers-${String(tag)}`, request: checked, policy: normalizePolicy(checked.policy, { mode: 'auto' }), status: 'queued' };
        const state = (await graph.invoke(input, config(String(threadId)))) as RunState;
        return review ? 'parked' : finish(String(tag), state);
      } finally {
        running.delete(String(threadId));
      }
    },
    /** Reads the pending review of a parked thread, as a reviewer's client reads the run. */
    async read({ threadId }) {
      const snapshot = await graph.getState(config(String(threadId)));
      const pending = snapshot.tasks.flatMap((task) => task.interrupts).map((entry) => entry.value as Review)[0];
      if (!pending) throw new Error(`thread ${String(threadId)} has no pending review (next: ${snapshot.next.join(', ') || 'none'})`);
      return pending;
    },
    /** Approves: the resume value carries the review id and payload hash the node checks. */
    async resume({ threadId, tag, reviewId, payloadHash: hash }) {
      running.add(String(threadId));
      try {
        const state = (await graph.invoke(new Command({ resume: { reviewId, payloadHash: hash } }), config(String(threadId)))) as RunState;
        return finish(String(tag), state);
      } finally {
        running.delete(String(threadId));
      }
    },
    /** Runs labelled `tag` that completed, and the threads with a checkpoint for that tag. */
    async count({ tag }) {
      const { rows } = await pool.query<{ n: number }>(`select count(distinct thread_id)::int as n from ${SCHEMA}.checkpoints where thread_id like $1`, [`${String(tag)}.%`]);
      return { completed: done.get(String(tag)) ?? 0, threads: rows[0]?.n ?? 0 };
    },
    async running() {
      return [...running];
    },
  };
  return {
    async call(method, args) {
      const handler = methods[method];
      if (!handler) throw new Error(`langgraph peer: no method ${method}`);
      return handler(args as Record<string, unknown>);
    },
    async close() {
      await pool.end();
    },
  };
}

async function buildGraph(checkpointer: PostgresSaver) {
  const config = loadConfig({ VETTED_POLICY: 'auto' });
  const engine = createInProcessEngine({ config, adapters: createAdapterRegistry(config) });
  for (const model of BENCH_MODELS) await registerModel(engine, { tenantId: SHARED_TENANT, source: await readModelSource(model.file), ref: model.ref });
  const builder = createHeuristicBuilder();
  const provider = createDryProvider();
  const maxAttachmentBytes = engine.config.limits.maxAttachmentBytes;
  const schemaOf = async (state: RunState): Promise<ModelSchema> => {
    const schema = state.schemaKey ? await engine.models.getSchema(state.schemaKey) : undefined;
    if (!schema) throw new Error(`no model schema for ${state.schemaKey}`);
    return schema;
  };
  const need = <T>(value: T | null | undefined, what: string): T => {
    if (value === null || value === undefined) throw new Error(`state has no ${what}`);
    return value;
  };

  return new StateGraph(State)
    .addNode('extract', async (state: RunState) => {
      const { schemaKey } = await resolveRunModel(engine, state.tenantId, state.request);
      return { schemaKey, status: 'extracted' };
    })
    .addNode('assemble', async (state: RunState) => {
      const bundle = assembleContext(state.request, { maxAttachmentBytes });
      const park = informationReview(bundle, state.policy);
      if (park) throw new Error(`bench request would park for information: ${park.reason}`);
      return { bundle, status: 'assembled' };
    })
    .addNode('build', async (state: RunState) => {
      const candidate = await builder.build({ bundle: need(state.bundle, 'bundle'), schema: await schemaOf(state) });
      return { candidate, status: 'built' };
    })
    .addNode('validate', async (state: RunState) => {
      const [candidate, bundle, schema] = [need(state.candidate, 'candidate'), need(state.bundle, 'bundle'), await schemaOf(state)];
      const quarantine = await engine.models.getQuarantine(need(state.schemaKey, 'schema key'));
      const issues = validatePayload({ candidate, schema, bundle, quarantine });
      const gate = decideGate({ issues, policy: state.policy, candidate, schema, bundle, approvedPayloadHash: null });
      if (gate.action === 'execute') return { issues, status: 'validated' };
      // The same review on the re-run after resume: its id is the thread's, its hash the payload's.
      const review: Review = { reviewId: reviewIdOf(state), payloadHash: payloadHash(candidate) };
      const decision = interrupt(review) as Review;
      if (decision.reviewId !== review.reviewId || decision.payloadHash !== review.payloadHash) throw new Error('the decision names another review or payload');
      return { issues, status: 'approved' };
    })
    .addNode('execute', async (state: RunState) => {
      const [candidate, schema] = [need(state.candidate, 'candidate'), await schemaOf(state)];
      const rejected = publishedSchemaIssues(schema, candidate.payload);
      if (rejected.length > 0) throw new Error(`the published schema rejects the payload: ${rejected[0]?.code}`);
      const execution = await provider.execute(
        { runId: state.runId, step: 'execute:1', model: schema.model, version: schema.version, payload: candidate.payload as Record<string, unknown> },
        async () => undefined,
      );
      return { execution, status: 'completed' };
    })
    .addEdge(START, 'extract')
    .addEdge('extract', 'assemble')
    .addEdge('assemble', 'build')
    .addEdge('build', 'validate')
    .addEdge('validate', 'execute')
    .addEdge('execute', END)
    .compile({ checkpointer });
}

/** A stable id per run for the review (the node runs again on resume and must name the same review). */
function reviewIdOf(state: RunState): string {
  return `${state.runId}.review`;
}
