/**
 * The fal and OpenAI providers under the chaos run's faults. Some requests of the mix (mix.ts: `fal`, `openai`,
 * `openai_lost`) run a fal endpoint through fal's queue and an OpenAI operation keyed by its ledger step, at the
 * loopback sims; these faults hit them where a provider call can be doubled:
 *
 *   fal 502 on submit        the submission may or may not be queued: never submitted again by itself, a person decides
 *   fal 429 burst            nothing queued: submitted again, as often as it takes
 *   kill -9 mid fal submit   fal queued it, the worker dies before it learns the request id: never submitted again
 *                            by itself (the run asks a person)
 *   kill -9 mid fal request  the request id is recorded: the next attempt polls the same request
 *   OpenAI answers lost      the image is made and stored under the key, the answer is a 502: the retry, same key,
 *                            gets the stored answer
 *   OpenAI 500s              nothing ran: the retry, same key, runs it once
 *   kill -9 mid OpenAI call  the call ran, its worker died before the answer: the next attempt, same key, is
 *                            answered from the store
 *
 * What ran is counted at the sims themselves (sim-executions.ts), so "executed twice: 0" covers these providers.
 */
import { waitUntil } from './log.ts';
import type { Fault } from './faults.ts';
import { READY_TIMEOUT_MS } from './processes.ts';
import { startFalSim, type FalSim } from '../src/sim/fal-sim.ts';

/** Not a secret: the fal sim refuses any other key, so the provider is proven to send it. */
const FAL_SIM_KEY = 'fal_sim_chaos_not_a_secret';
/** How long a held submission or call waits for its answer: time for the kill to land first. */
const HOLD_MS = 4000;
/** How long a fault waits for a fal or OpenAI call to come along once execute serves (they are a few percent of the mix). */
const WAIT_FOR_CALL_MS = 30_000;

/** A provider call the fault waits for, to kill the execute worker around it. */
export interface CallTrap {
  /** The call, for the record ("fal submission"). */
  what: string;
  /** Asks the sim to hold back the next call's answer; a trap that only watches for a running call has none. */
  arm?(): void;
  /** Takes the hold back when no call came, so a later call is not held for nothing. */
  disarm?(): void;
  /** True once a call is where the kill should find it. */
  caught(): boolean;
}

export interface TrapWaits {
  /** For the execute worker to serve: a restart after the previous kill takes over a minute on a loaded machine. */
  readyMs: number;
  /** For a call, once it serves. */
  callMs: number;
}

/**
 * Waits for the execute worker to serve, and only then arms the trap and waits for a call to walk into it: armed
 * while the worker restarts, the wait for a call ran out before any worker could make one, and nothing was killed.
 * Undefined when a call is caught; otherwise why there is nothing to kill around.
 */
export async function trapCall(workerServes: (timeoutMs: number) => Promise<boolean>, trap: CallTrap, waits: TrapWaits = { readyMs: READY_TIMEOUT_MS, callMs: WAIT_FOR_CALL_MS }): Promise<string | undefined> {
  if (!(await workerServes(waits.readyMs))) return `the execute worker did not serve within ${waits.readyMs / 1000} s; nothing killed`;
  trap.arm?.();
  if (await waitUntil(() => trap.caught(), waits.callMs, 10)) return undefined;
  trap.disarm?.();
  return `no ${trap.what} within ${waits.callMs / 1000} s; nothing killed`;
}

/** The fal sim and the environment that points the `fal` provider at it (polling only, quick polls). */
export async function startFalForChaos(): Promise<{ fal: FalSim; env: Record<string, string> }> {
  // Three status reads before a request completes: a few hundred ms in flight, where a kill can land.
  const fal = await startFalSim({ apiKey: FAL_SIM_KEY, pollsToComplete: 3 });
  return {
    fal,
    env: {
      FAL_KEY: FAL_SIM_KEY,
      FAL_BASE_URL: fal.baseUrl,
      VETTED_FAL_POLL_MS: '100',
      VETTED_FAL_TIMEOUT_MS: '15000',
      // A held call (HOLD_MS) is slow, not failed.
      VETTED_OPENAI_EXECUTE_TIMEOUT_MS: '10000',
    },
  };
}

/** kill -9 the execute worker while the fal sim holds back the answer to a submission it already queued. */
const killMidFalSubmit: Fault['inject'] = async ({ fleet, fal }) => {
  const missed = await trapCall((ms) => fleet.waitReady('execute', ms), {
    what: 'fal submission',
    arm: () => fal.holdNextSubmits(1, HOLD_MS),
    disarm: () => fal.holdNextSubmits(0, 0),
    caught: () => fal.submitsHeld > 0,
  });
  if (missed) return missed;
  const pid = await fleet.kill9('execute');
  return pid === undefined ? 'execute was not running' : `pid ${pid}, while fal held the answer to a submission it had queued`;
};

/** kill -9 the execute worker while a fal request it submitted (and recorded) is still running. */
const killMidFalRequest: Fault['inject'] = async ({ fleet, fal }) => {
  // In progress = its status was read at least once, so its request id is in the ledger (the worker records it
  // before the first read); a submission whose caller died earlier is never read and stays IN_QUEUE.
  const running = () => fal.submitted().find((s) => s.status === 'IN_PROGRESS');
  const missed = await trapCall((ms) => fleet.waitReady('execute', ms), { what: 'fal request running', caught: () => running() !== undefined });
  if (missed) return missed;
  const request = running();
  const pid = await fleet.kill9('execute');
  return pid === undefined ? 'execute was not running' : `pid ${pid}, while fal request ${request?.requestId ?? '?'} ran`;
};

/** kill -9 the execute worker while the OpenAI sim holds back the answer to a call it already ran. */
const killMidOpenAiCall: Fault['inject'] = async ({ fleet, sims }) => {
  const missed = await trapCall((ms) => fleet.waitReady('execute', ms), {
    what: 'OpenAI call',
    arm: () => sims.openai.holdNextCalls(1, HOLD_MS),
    disarm: () => sims.openai.holdNextCalls(0, 0),
    caught: () => sims.openai.callsHeld > 0,
  });
  if (missed) return missed;
  const pid = await fleet.kill9('execute');
  return pid === undefined ? 'execute was not running' : `pid ${pid}, while the OpenAI sim held the answer to a call it had run`;
};

export const PROVIDER_FAULTS: readonly Fault[] = [
  {
    at: 0.3,
    name: 'fal 502 on submit',
    inject: async ({ fal }) => (fal.failNextSubmits(2, 502), 'next 2 fal submissions answer 502 (nothing queued; the caller cannot know)'),
  },
  { at: 0.45, name: 'fal 429 burst', inject: async ({ fal }) => (fal.failNextSubmits(6, 429), 'next 6 fal submissions answer 429 (nothing queued)') },
  { at: 0.51, name: 'kill -9 worker:execute mid fal submit', inject: killMidFalSubmit },
  { at: 0.57, name: 'kill -9 worker:execute mid fal request', inject: killMidFalRequest },
  {
    at: 0.65,
    name: 'OpenAI answers lost',
    inject: async ({ sims }) => (sims.openai.loseNextAnswers(3), 'next 3 OpenAI model calls run, their first answer is a 502'),
  },
  { at: 0.74, name: 'OpenAI 500s', inject: async ({ sims }) => (sims.openai.failNextCalls(4, 500), 'next 4 OpenAI model calls answer 500 (nothing ran)') },
  { at: 0.79, name: 'kill -9 worker:execute mid OpenAI call', inject: killMidOpenAiCall },
];
