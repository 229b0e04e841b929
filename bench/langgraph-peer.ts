/**
 * Phase `peers`: LangGraph JS with its PostgreSQL checkpointer (bench/peers/langgraph.ts) doing what Vetted
 * does, on the same PostgreSQL (the bench database, schema `langgraph`), at the same loads, in a worker
 * process of its own, alternated with Vetted in rounds like every phase:
 *
 * - pipeline: extract → assemble → build → validate → execute on the bench requests (auto policy), at
 *   `--in-flight` and at 1 in flight; compared with phase `vetted`;
 * - review: the run stops at validate with interrupt(), the driver reads the review (getState) and resumes
 *   with Command({ resume }); at `--review-in-flight` and at 1 in flight; compared with phase `review`'s
 *   Vetted round trip when that phase runs in the same bench.
 *
 * The driver asks the peer's process for each request over IPC (worker-process.ts `call`) and a request ends
 * when the answer is read (call-completion.ts), as a queue event ends Vetted's. The peer's packages are
 * installed into bench/peers on first use (npm ci against its lock file); Vetted never depends on them.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createCallTracker } from './call-completion.ts';
import { createCostMeter } from './cost-meter.ts';
import { measureLoads, type LoadTarget } from './load-driver.ts';
import type { BenchContext, Phase } from './phase.ts';
import { startWorkerProcess, type WorkerProcess } from './worker-process.ts';

const PEERS_DIR = fileURLToPath(new URL('./peers/', import.meta.url));
const LANGGRAPH_MODULE = path.join(PEERS_DIR, 'langgraph.ts');
/** A package the peer imports: present once `npm ci` has run in bench/peers. */
const INSTALLED_MARK = path.join(PEERS_DIR, 'node_modules', '@langchain', 'langgraph-checkpoint-postgres', 'package.json');

export const LANGGRAPH_SYSTEM = 'langgraph';
export const LANGGRAPH_REVIEW_SYSTEM = 'langgraph review';

export const PEERS_DESCRIPTION = [
  'langgraph: @langchain/langgraph StateGraph START → extract → assemble → build → validate → execute → END, compiled',
  '           with PostgresSaver (@langchain/langgraph-checkpoint-postgres; a checkpoint per step, default durability',
  "           'async') on the bench database, in a worker process of its own (same pool size). The nodes call Vetted's",
  '           own stage code (catalog lookup, assembleContext, heuristic builder, validatePayload + decideGate,',
  '           published-schema guard + dry provider). The driver asks for each request over IPC.',
  'langgraph review: the same graph with policy require_human: validate calls interrupt({ reviewId, payloadHash });',
  '           the driver reads it (graph.getState), then invoke(new Command({ resume })) approves; validate runs again',
  '           on resume (LangGraph re-runs an interrupted node) and execute completes the run.',
];

export const peersPhase: Phase = {
  name: 'peers',
  summary: 'LangGraph JS + PostgresSaver doing the same stages, and the same review with interrupt()/Command({resume})',
  optIn: true,
  comparedWith: ['vetted'],
  async run(context) {
    await ensurePeersInstalled(context);
    const { environment, options } = context;
    const pool = new pg.Pool({ connectionString: environment.databaseUrl, max: 2 });
    try {
      const peer = await startWorkerProcess(
        { kind: 'peer', module: LANGGRAPH_MODULE, options: { databaseUrl: environment.databaseUrl, poolSize: environment.poolSize } },
        options.cpuProfDir,
        'langgraph',
      );
      try {
        const meter = createCostMeter(peer, pool, environment.databaseUrl);
        const pipeline = await measureLoads(context, langgraphTarget(peer, { review: false }), meter);
        const review = await measureLoads(context, langgraphTarget(peer, { review: true }), meter, {
          requests: options.reviewRequests,
          inFlight: options.reviewInFlight,
        });
        return { loads: [...pipeline, ...review], section: { title: 'What one LangGraph request does (phase peers)', lines: PEERS_DESCRIPTION } };
      } finally {
        await peer.stop();
      }
    } finally {
      await pool.end();
    }
  },
};

/** A closed-loop target over the peer's calls: a whole pipeline run, or park → read → resume. */
function langgraphTarget(peer: WorkerProcess, as: { review: boolean }): LoadTarget {
  const tracker = createCallTracker();
  // Both targets run the same sequence of tags (warmup, throughput, ...): the peer counts them apart.
  const label = (tag: string) => (as.review ? `review-${tag}` : tag);
  return {
    system: as.review ? LANGGRAPH_REVIEW_SYSTEM : LANGGRAPH_SYSTEM,
    ...(as.review ? { label: 'park → read → resume → execute' } : {}),
    prefix: '',
    lastQueue: '',
    completions: async () => tracker,
    async submit(index, runTag) {
      const tag = label(runTag);
      const threadId = `${tag}.${randomUUID()}`;
      const work = as.review
        ? (async () => {
            await peer.call('run', { threadId, index, tag, review: true });
            const review = (await peer.call('read', { threadId })) as { reviewId: string; payloadHash: string };
            return peer.call('resume', { threadId, tag, ...review });
          })()
        : peer.call('run', { threadId, index, tag, review: false });
      tracker.track(threadId, work);
      return threadId;
    },
    async verify(tag, expected) {
      const { completed, threads } = (await peer.call('count', { tag: label(tag) })) as { completed: number; threads: number };
      if (completed !== expected || threads !== expected) {
        throw new Error(`langgraph ${tag}: expected ${expected} completed runs with a checkpointed thread each, found ${completed} completed, ${threads} threads`);
      }
    },
    async describe() {
      const running = (await peer.call('running', {})) as string[];
      return `The peer is still working on ${running.length} thread(s).`;
    },
  };
}

/** Installs bench/peers's packages (npm ci against its lock file) unless they are there already. */
async function ensurePeersInstalled(context: BenchContext): Promise<void> {
  if (existsSync(INSTALLED_MARK)) return;
  context.note('peers: installing LangGraph JS into bench/peers/node_modules (npm ci, first use only; Vetted does not depend on it)…');
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEERS_DIR, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm ci in ${PEERS_DIR} failed (exit ${code}); run it by hand to see why`))));
  });
  if (!existsSync(INSTALLED_MARK)) throw new Error(`npm ci in ${PEERS_DIR} finished but ${INSTALLED_MARK} is missing`);
  context.note('peers: installed');
}
