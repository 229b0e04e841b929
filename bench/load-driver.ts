/**
 * The closed-loop driver: K lanes, each submitting one request and waiting for its completion before the
 * next, so exactly K requests are outstanding (until the last ones drain). With K = 100 it measures
 * throughput; with K = 1, the latency of one request on an idle system. Both systems go through the same
 * sequence (warm-up, throughput, latency warm-up, latency) with the same completion detection.
 */
import { createCompletionTracker, type CompletionTracker, type TrackedEvent } from './completion.ts';
import type { CostMeter } from './cost-meter.ts';
import type { BenchContext } from './phase.ts';
import type { LoadRow } from './report.ts';

/**
 * A request whose measured time starts later than the submit call: the part before `startedAt`
 * (performance.now()) is set-up that is not timed, e.g. parking a run before timing its decision.
 */
export interface Submitted {
  requestId: string;
  startedAt: number;
}

/** What the driver needs from a system under test. */
export interface LoadTarget {
  system: string;
  /** The BullMQ prefix of this system's queues and the queue whose event (`completed`) ends a request. */
  prefix: string;
  lastQueue: string;
  /** The job event on lastQueue that ends a request: `completed` (default), or `active` (execution started). */
  endEvent?: TrackedEvent;
  /**
   * How the driver learns a request ended, for a system with no queue events (a peer answering a call):
   * default a tracker of `endEvent` on lastQueue.
   */
  completions?(): Promise<CompletionTracker>;
  /** What a request's time measures, when not "submit → completion"; becomes the load table's label. */
  label?: string;
  /**
   * Starts request number `index`, labelled `tag`; resolves to the request id its last job carries (the
   * request is timed from just before this call), or to a Submitted naming when the timing starts.
   */
  submit(index: number, tag: string): Promise<string | Submitted>;
  /** Throws unless exactly `expected` requests labelled `tag` reached their final state. */
  verify(tag: string, expected: number): Promise<void>;
  /** The states of requests that stopped moving, for the stall error. */
  describe(requestIds: string[]): Promise<string>;
  /**
   * Called once a run's last request completed, before its costs are read: a system whose requests leave
   * work behind that outlives them (shadow reports) finishes it here, so that work's CPU is counted and it
   * does not spill into the next run.
   */
  settle?(tag: string): Promise<void>;
}

/** Requests at one in flight before the latency figures start: reconnects, idle pools, cold paths. */
export const LATENCY_WARMUP = 20;

/** How many requests each run of the sequence gets; the defaults come from the flags. */
export interface LoadPlan {
  warmup: number;
  requests: number;
  inFlight: number;
  latencyRequests: number;
  /** What the 1-in-flight runs drive, when it is not the throughput target (another start or end point). */
  latencyTarget?: LoadTarget;
}

/**
 * The sequence every load phase shares: warm-up at K in flight (not reported), throughput at K, a few
 * requests at 1 in flight (not reported), then latency at 1. Each run's costs are read around it and its
 * requests verified after it.
 */
export async function measureLoads(context: BenchContext, target: LoadTarget, meter: CostMeter, plan: Partial<LoadPlan> = {}): Promise<LoadRow[]> {
  const { options } = context;
  const { warmup, requests, inFlight, latencyRequests } = { ...options, ...plan };
  const latencyTarget = plan.latencyTarget ?? target;
  const trackers = new Map<LoadTarget, CompletionTracker>();
  const trackerOf = async (of: LoadTarget): Promise<CompletionTracker> => {
    const existing = trackers.get(of);
    if (existing) return existing;
    const created = await trackerFor(context, of);
    trackers.set(of, created);
    return created;
  };
  try {
    const run = async (of: LoadTarget, tag: string, total: number, k: number, load?: LoadRow['load']): Promise<LoadRow[]> => {
      if (total <= 0) return [];
      const completions = await trackerOf(of);
      const before = await meter.snapshot();
      const row = await drive(context, of, completions, { tag, total, inFlight: k });
      await of.settle?.(tag);
      const costs = await meter.perRequest(before, await meter.snapshot(), total);
      await of.verify(tag, total);
      return load ? [{ ...row, costs, load, ...(of.label ? { label: of.label } : {}) }] : [];
    };
    await run(target, 'warmup', warmup, inFlight);
    const throughput = await run(target, 'throughput', requests, inFlight, 'throughput');
    await run(latencyTarget, 'idle-warmup', Math.min(LATENCY_WARMUP, latencyRequests), 1);
    const latency = await run(latencyTarget, 'latency', latencyRequests, 1, 'latency');
    return [...throughput, ...latency];
  } finally {
    await Promise.all([...trackers.values()].map((tracker) => tracker.close()));
  }
}

/** One reported run outside the sequence (no warm-up of its own): for targets that consume prepared work. */
export async function measureOnce(context: BenchContext, target: LoadTarget, meter: CostMeter, input: DriveInput & { load: LoadRow['load'] }): Promise<LoadRow> {
  const completions = await trackerFor(context, target);
  try {
    const before = await meter.snapshot();
    const row = await drive(context, target, completions, input);
    await target.settle?.(input.tag);
    const costs = await meter.perRequest(before, await meter.snapshot(), input.total);
    await target.verify(input.tag, input.total);
    return { ...row, costs, load: input.load, ...(target.label ? { label: target.label } : {}) };
  } finally {
    await completions.close();
  }
}

function trackerFor(context: BenchContext, target: LoadTarget): Promise<CompletionTracker> {
  return target.completions?.() ?? createCompletionTracker(context.environment.redisUrl, target.prefix, target.lastQueue, target.endEvent);
}

export interface DriveInput {
  tag: string;
  total: number;
  inFlight: number;
}

/**
 * One closed-loop run of `total` requests at `inFlight`: the request rate and every request's latency,
 * from submit (or the Submitted start) to the tracker's event for it. Stops on a stall or Ctrl-C.
 */
export async function drive(context: BenchContext, target: LoadTarget, completions: CompletionTracker, input: DriveInput): Promise<Omit<LoadRow, 'load'>> {
  const label = `${target.system} ${input.tag} (${input.inFlight} in flight)`;
  const latenciesMs: number[] = new Array(input.total);
  let next = 0;
  let done = 0;
  let lastActivity = performance.now();
  let stopped = false;
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);
  const stop = (error: Error) => {
    stopped = true;
    completions.failAll(error);
    fail(error);
  };

  const lane = async () => {
    while (!stopped && next < input.total) {
      const index = next++;
      const submittedAt = performance.now();
      const submitted = await target.submit(index, input.tag);
      const { requestId, startedAt: timedFrom } = typeof submitted === 'string' ? { requestId: submitted, startedAt: submittedAt } : submitted;
      const completedAt = await completions.wait(requestId);
      latenciesMs[index] = completedAt - timedFrom;
      done += 1;
      lastActivity = completedAt;
    }
  };

  const onAbort = () => stop(new Error('interrupted'));
  context.signal.addEventListener('abort', onAbort, { once: true });
  const progress = watchProgress(context, label, input.total, () => done, () => lastActivity, async () => {
    const pending = completions.pending();
    const states = await target.describe(pending).catch((error: unknown) => `(could not read their states: ${String(error)})`);
    stop(new Error(`${label}: no request finished for ${context.options.stallSeconds} s; ${pending.length} outstanding. ${states}`));
  });
  const startedAt = performance.now();
  try {
    await Promise.race([Promise.all(Array.from({ length: Math.min(input.inFlight, input.total) }, lane)), failed]);
  } finally {
    stopped = true;
    clearInterval(progress);
    context.signal.removeEventListener('abort', onAbort);
  }
  const seconds = (lastActivity - startedAt) / 1000;
  if (!context.options.quiet) context.note(`${label}: ${input.total} requests in ${seconds.toFixed(2)} s (${(input.total / seconds).toFixed(1)} req/s)`);
  return { system: target.system, inFlight: input.inFlight, requests: input.total, seconds, latenciesMs };
}

/** A line a second (done/total, rate over the last second) and the stall watchdog, on one timer. */
function watchProgress(
  context: BenchContext,
  label: string,
  total: number,
  done: () => number,
  lastActivity: () => number,
  onStall: () => Promise<void>,
): NodeJS.Timeout {
  let previous = 0;
  let stalled = false;
  return setInterval(() => {
    const now = done();
    if (!context.options.quiet) context.note(`  ${label}: ${now}/${total}  ${now - previous} req/s`);
    previous = now;
    if (!stalled && performance.now() - lastActivity() > context.options.stallSeconds * 1000) {
      stalled = true;
      void onStall();
    }
  }, 1000);
}
