/**
 * The faults, on a fixed schedule spread over the load (times are fractions of the load's duration), each
 * logged with its time. The list is the whole story of what a chaos run does to the system:
 *
 *   kill -9 a worker      each stage's process at least once, the execute process five times (timed to hit a
 *                         prediction in flight), the all-queues process (reconciler, expiry) and the API once
 *   Redis restart         twice; the private Redis keeps nothing, so every queued job is gone
 *   PostgreSQL restart    once `immediate` (a crash: recovery from WAL), once `fast`
 *   LLM misbehaving       every answer a 500 for 3 s; every answer slow for 4 s
 *   provider misbehaving  the next creates answer 500 (may or may not exist: the run must ask a person) and a
 *                         burst of 429s (created nothing: retried)
 *   kill -9 the MCP server twice, each while a tool call is in flight (its client sends the call again)
 *   fal and OpenAI       submissions refused or answered late, answers lost, kills around a call
 *                        (provider-faults.ts)
 *
 * Per-request misbehaviour (sim:slow, sim:500, sim:fail, sim:hang, sim:429) comes from the request mix.
 */
import { elapsed, errorMessage, log, sleep } from './log.ts';
import type { Fleet, Role } from './processes.ts';
import type { PrivatePostgres, PrivateRedis } from './services.ts';
import type { SimServers } from '../src/sim/index.ts';
import type { McpClient } from './mcp-client.ts';
import type { FalSim } from '../src/sim/fal-sim.ts';
import { PROVIDER_FAULTS } from './provider-faults.ts';

export interface FaultContext {
  fleet: Fleet;
  redis: PrivateRedis;
  postgres: PrivatePostgres;
  sims: SimServers;
  fal: FalSim;
  mcp?: McpClient;
}

export interface FaultRecord {
  at: string;
  name: string;
  detail: string;
  error?: string;
}

export interface Fault {
  /** When, as a fraction of the load's planned duration. */
  at: number;
  name: string;
  inject(ctx: FaultContext): Promise<string>;
}

const kill = (role: Role): Fault['inject'] => async ({ fleet }) => {
  const pid = await fleet.kill9(role);
  return pid === undefined ? `${role} was not running (still restarting after 30 s)` : `pid ${pid}`;
};

/** kill -9 the execute worker while a prediction it created is still running (waits at most 3 s for one). */
const killExecuteMidPrediction: Fault['inject'] = async (ctx) => {
  // A freshly restarted execute worker first has to be up, or there is nothing in flight to interrupt.
  await ctx.fleet.waitReady('execute');
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const last = ctx.sims.replicate.created().at(-1);
    if (last && Date.now() - Date.parse(last.createdAt) < 150) break;
    await sleep(25);
  }
  const last = ctx.sims.replicate.created().at(-1);
  const pid = await ctx.fleet.kill9('execute');
  const age = last ? `${Date.now() - Date.parse(last.createdAt)} ms after prediction ${last.id} was created` : 'no prediction yet';
  return pid === undefined ? 'execute was not running (still restarting after 30 s)' : `pid ${pid}, ${age}`;
};

/** kill -9 `vetted mcp --http` while one of its tool calls waits for an answer (waits at most 20 s for one). */
const killMcpMidCall: Fault['inject'] = async (ctx) => {
  await ctx.fleet.waitReady('mcp');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && (ctx.mcp?.inFlight ?? 0) === 0) await sleep(5);
  const inFlight = ctx.mcp?.inFlight ?? 0;
  const pid = await ctx.fleet.kill9('mcp');
  return pid === undefined ? 'mcp was not running (still restarting after 30 s)' : `pid ${pid}, ${inFlight} call(s) in flight`;
};

/** For `durationMs`, the LLM answers every request with `behavior`; then it behaves again. */
const llmWindow = (behavior: 'server_error' | 'slow', durationMs: number): Fault['inject'] => async ({ sims }) => {
  sims.openai.setBehavior(behavior);
  setTimeout(() => sims.openai.setBehavior('answer'), durationMs).unref();
  return `every chat completion: ${behavior} for ${durationMs / 1000} s`;
};

const CORE_FAULTS: readonly Fault[] = [
  { at: 0.08, name: 'kill -9 worker:extract', inject: kill('extract') },
  { at: 0.12, name: 'LLM 500s', inject: llmWindow('server_error', 3000) },
  { at: 0.16, name: 'kill -9 worker:execute', inject: killExecuteMidPrediction },
  { at: 0.22, name: 'kill -9 worker:assemble', inject: kill('assemble') },
  { at: 0.27, name: 'Redis restart (data gone)', inject: async ({ redis }) => (await redis.restart(1500), 'down 1.5 s, came back empty') },
  { at: 0.33, name: 'kill -9 worker:execute', inject: killExecuteMidPrediction },
  {
    at: 0.37,
    name: 'provider 5xx on create',
    inject: async ({ sims }) => (sims.replicate.failNextCreates(4, 500), 'next 4 prediction creates answer 500 (nothing created; the caller cannot know)'),
  },
  { at: 0.40, name: 'kill -9 mcp mid-call', inject: killMcpMidCall },
  { at: 0.42, name: 'kill -9 worker:build', inject: kill('build') },
  { at: 0.48, name: 'PostgreSQL restart (immediate)', inject: async ({ postgres }) => (await postgres.restart('immediate', 2000), 'crash stop, down 2 s, WAL recovery') },
  { at: 0.55, name: 'kill -9 worker:validate', inject: kill('validate') },
  {
    at: 0.59,
    name: 'provider 429 burst',
    inject: async ({ sims }) => (sims.replicate.failNextCreates(18, 429), 'next 18 prediction creates answer 429 (the SDK retries 5 times per call)'),
  },
  { at: 0.63, name: 'kill -9 worker:execute', inject: killExecuteMidPrediction },
  { at: 0.68, name: 'LLM slow', inject: llmWindow('slow', 4000) },
  { at: 0.70, name: 'kill -9 mcp mid-call', inject: killMcpMidCall },
  { at: 0.72, name: 'kill -9 worker:all (reconciler, expiry)', inject: kill('all') },
  { at: 0.77, name: 'PostgreSQL restart (fast)', inject: async ({ postgres }) => (await postgres.restart('fast', 1000), 'clean stop, down 1 s') },
  { at: 0.82, name: 'kill -9 api', inject: kill('api') },
  { at: 0.84, name: 'kill -9 worker:execute', inject: killExecuteMidPrediction },
  { at: 0.88, name: 'Redis restart (data gone)', inject: async ({ redis }) => (await redis.restart(1000), 'down 1 s, came back empty') },
  { at: 0.93, name: 'kill -9 worker:execute', inject: killExecuteMidPrediction },
];

export const FAULT_SCHEDULE: readonly Fault[] = [...CORE_FAULTS, ...PROVIDER_FAULTS].sort((a, b) => a.at - b.at);

/**
 * Injects every fault at its time (relative to `startedAt`, over `durationMs`), one after another, and
 * returns what was done. Stops early, without injecting the rest, when `cancelled()` says so.
 */
export async function runFaults(ctx: FaultContext, startedAt: number, durationMs: number, cancelled: () => boolean): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const fault of FAULT_SCHEDULE) {
    const due = startedAt + fault.at * durationMs;
    if (due > Date.now()) await sleep(due - Date.now());
    if (cancelled()) break;
    const at = elapsed();
    try {
      const detail = await fault.inject(ctx);
      records.push({ at, name: fault.name, detail });
      log(`FAULT ${records.length}/${FAULT_SCHEDULE.length} ${fault.name}: ${detail}`);
    } catch (error) {
      records.push({ at, name: fault.name, detail: 'injection failed', error: errorMessage(error) });
      log(`FAULT ${fault.name} could not be injected: ${errorMessage(error)}`);
    }
  }
  return records;
}
