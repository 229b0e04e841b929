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
import { startFalSim, type FalSim } from '../src/sim/fal-sim.ts';

/** Not a secret: the fal sim refuses any other key, so the provider is proven to send it. */
const FAL_SIM_KEY = 'fal_sim_chaos_not_a_secret';
/** How long a held submission or call waits for its answer: time for the kill to land first. */
const HOLD_MS = 4000;
/** How long a fault waits for a fal or OpenAI call to come along (they are a few percent of the mix). */
const WAIT_FOR_CALL_MS = 20_000;

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
  await fleet.waitReady('execute');
  fal.holdNextSubmits(1, HOLD_MS);
  const held = await waitUntil(() => fal.submitsHeld > 0, WAIT_FOR_CALL_MS, 10);
  if (!held) {
    fal.holdNextSubmits(0, 0);
    return `no fal submission within ${WAIT_FOR_CALL_MS / 1000} s; nothing killed`;
  }
  const pid = await fleet.kill9('execute');
  return pid === undefined ? 'execute was not running' : `pid ${pid}, while fal held the answer to a submission it had queued`;
};

/** kill -9 the execute worker while a fal request it submitted (and recorded) is still running. */
const killMidFalRequest: Fault['inject'] = async ({ fleet, fal }) => {
  await fleet.waitReady('execute');
  // In progress = its status was read at least once, so its request id is in the ledger (the worker records it
  // before the first read); a submission whose caller died earlier is never read and stays IN_QUEUE.
  const running = () => fal.submitted().find((s) => s.status === 'IN_PROGRESS');
  const found = await waitUntil(() => running() !== undefined, WAIT_FOR_CALL_MS, 10);
  if (!found) return `no fal request running within ${WAIT_FOR_CALL_MS / 1000} s; nothing killed`;
  const request = running();
  const pid = await fleet.kill9('execute');
  return pid === undefined ? 'execute was not running' : `pid ${pid}, while fal request ${request?.requestId ?? '?'} ran`;
};

/** kill -9 the execute worker while the OpenAI sim holds back the answer to a call it already ran. */
const killMidOpenAiCall: Fault['inject'] = async ({ fleet, sims }) => {
  await fleet.waitReady('execute');
  sims.openai.holdNextCalls(1, HOLD_MS);
  const held = await waitUntil(() => sims.openai.callsHeld > 0, WAIT_FOR_CALL_MS, 10);
  if (!held) {
    sims.openai.holdNextCalls(0, 0);
    return `no OpenAI call within ${WAIT_FOR_CALL_MS / 1000} s; nothing killed`;
  }
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
